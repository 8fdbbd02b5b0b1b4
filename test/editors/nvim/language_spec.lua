-- The agent uses Neovim's other language servers: a real second server (the toy server of
-- test/helpers/toy-lsp) is attached to two buffers. The model asks for references and gets
-- the toy server's answer through the plugin; renames across both files, reviewed and taken
-- whole with ga; then makes an edit that the toy server flags, and the diagnostic comes back
-- in the edit's result (the vitest side checks what the model was sent).
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

T.run(function()
  T.forbid_blocking_prompts()
  local lib = T.open("lib.toy")
  local main = T.open("main.toy")
  local toy = vim.lsp.start_client({ name = "toy", cmd = { T.data.node, T.data.toy_server, "--stdio" }, root_dir = vim.fn.getcwd() })
  T.truthy(toy, "the toy server started")
  vim.lsp.buf_attach_client(lib, toy)
  vim.lsp.buf_attach_client(main, toy)
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
end)
