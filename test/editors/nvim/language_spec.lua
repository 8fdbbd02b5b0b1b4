-- The agent uses Neovim's other language servers: a real second server (the toy server of
-- test/helpers/toy-lsp) is attached to two buffers. The model asks for references and gets
-- the toy server's answer through the plugin; renames across both files, reviewed and taken
-- whole with ga; then makes an edit that the toy server flags, and the diagnostic comes back
-- in the edit's result (the vitest side checks what the model was sent). Then the handler's
-- failures, and a file Neovim has not loaded.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function in_review()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match("^agent%-lsp://review/") then
      return true
    end
  end
  return false
end

--- Waits for the diff review of a change and takes it whole.
local function accept_review()
  T.wait("the diff review", in_review)
  T.feed("ga")
end

--- Starts the toy server on `bufs` as a user's config would: `vim.lsp.start` where it exists
--- (0.8+; 0.11 deprecates `vim.lsp.start_client`), `vim.lsp.start_client` on 0.7.
---@param bufs integer[]
---@return integer? client id
local function start_toy(bufs)
  local cfg = { name = "toy", cmd = { T.data.node, T.data.toy_server, "--stdio" }, root_dir = vim.fn.getcwd() }
  local id = vim.lsp.start and vim.lsp.start(cfg, { bufnr = bufs[1] }) or vim.lsp.start_client(cfg)
  for _, buf in ipairs(bufs) do
    if id then
      vim.lsp.buf_attach_client(buf, id)
    end
  end
  return id
end

T.run(function()
  T.forbid_blocking_prompts()
  local lib = T.open("lib.toy")
  local main = T.open("main.toy")
  local toy = start_toy({ lib, main })
  T.truthy(toy, "the toy server started")
  T.wait("the toy server to be ready", function()
    local c = vim.lsp.get_client_by_id(toy)
    return c and c.server_capabilities and c.server_capabilities.referencesProvider
  end)

  local chat = T.open_chat()
  T.send(chat, "Who uses greet?")
  T.wait_idle(chat)

  T.send(chat, "Rename greet to salute")
  accept_review()
  T.wait_idle(chat)
  T.eq(T.text(lib), "def salute = hello\ndef hello = world\ndef world = world", "lib.toy renamed in its buffer")
  T.eq(T.text(main), "def main = salute\nuse salute twice salute", "main.toy renamed in its buffer")

  T.send(chat, "Use thrice")
  accept_review()
  T.wait_idle(chat)
  T.eq(T.text(main), "def main = salute\nuse salute thrice salute", "the edit landed")
  T.wait("the toy server's diagnostic in Neovim", function()
    return #vim.diagnostic.get(main) == 1
  end)

  -- Failures are JSON-RPC errors whose message says why: a file no server serves, a server
  -- that fails, a method that is not one of the language service's.
  local service = require("agent_lsp.language_service")
  local notes = T.open("notes.txt")
  local at = { line = 0, character = 0 }
  local result, err = service.handle({ method = "textDocument/hover", params = { textDocument = { uri = vim.uri_from_bufnr(notes) }, position = at } })
  T.eq(result, nil, "no answer for a file no server serves")
  T.contains(err.message, "no language server in Neovim serves textDocument/hover for notes.txt", "the reason")
  vim.api.nvim_buf_set_lines(main, 0, -1, false, { "use explode" })
  result, err = service.handle({ method = "textDocument/references", params = { textDocument = { uri = vim.uri_from_bufnr(main) }, position = { line = 0, character = 5 }, context = { includeDeclaration = true } } })
  T.eq(result, nil, "no answer when the server fails")
  T.contains(err.message, "toy: the toy server exploded", "the server's own message, with its name")
  result, err = service.handle({ method = "textDocument/formatting", params = {} })
  T.eq(result, nil, "no answer for another method")
  T.eq(err.code, vim.lsp.protocol.ErrorCodes.InvalidParams, "an unknown method is invalid params")
  T.eq(require("agent_lsp.diagnostics").answer({ uri = vim.uri_from_bufnr(notes) }), { diagnostics = {}, servers = 0 }, "no server on notes.txt: nothing will publish")
  -- A file Neovim has not loaded is asked of the servers whose root holds it.
  local words = vim.uri_from_fname(vim.fn.getcwd() .. "/words.toy")
  result = service.handle({ method = "textDocument/documentSymbol", params = { textDocument = { uri = words } } })
  T.eq(vim.tbl_map(function(s)
    return s.name
  end, result), { "use", "twice" }, "the toy server answered for the unloaded words.toy")
  T.eq(vim.fn.bufloaded(vim.fn.getcwd() .. "/words.toy"), 0, "no buffer was loaded for it")
end)
