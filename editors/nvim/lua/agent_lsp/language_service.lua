---@mod agent_lsp.language_service agent/languageService: your other language servers answer the agent.
---
--- The agent asks for definitions, references, hover, symbols, a rename (computed, not applied:
--- the agent applies it as one reviewed change) and diagnostics. Every method but diagnostics
--- goes to each language server Neovim runs for the file (agent-lsp's own client skipped) that
--- serves it, and their answers are merged; diagnostics come from `vim.diagnostic.get`, so every
--- source is included, not only LSP (agent_lsp.diagnostics). Neovim's handlers answer server
--- requests synchronously (0.7 has no way to answer later), so the request waits for the other
--- servers with `vim.wait`, which keeps processing their answers, within `TIMEOUT_MS`.

local util = require("agent_lsp.util")

local M = {}

--- The methods the plugin serves (declared in `capabilities.experimental.agent.languageService`).
M.METHODS = {
  "textDocument/definition",
  "textDocument/references",
  "textDocument/hover",
  "textDocument/documentSymbol",
  "workspace/symbol",
  "textDocument/prepareRename",
  "textDocument/rename",
  "textDocument/diagnostics",
}

--- How long the other servers may take: under the server's own 5 s, so it gets our reason.
M.TIMEOUT_MS = 4500

--- The server capability that says a server serves each method.
local PROVIDER = {
  ["textDocument/definition"] = "definitionProvider",
  ["textDocument/references"] = "referencesProvider",
  ["textDocument/hover"] = "hoverProvider",
  ["textDocument/documentSymbol"] = "documentSymbolProvider",
  ["workspace/symbol"] = "workspaceSymbolProvider",
  ["textDocument/rename"] = "renameProvider",
}

--- Methods whose answers are lists, concatenated across servers.
local LISTS = {
  ["textDocument/definition"] = true,
  ["textDocument/references"] = true,
  ["textDocument/documentSymbol"] = true,
  ["workspace/symbol"] = true,
}

local islist = vim.islist or vim.tbl_islist

---@param message string
local function failure(message)
  -- InternalError: 0.7 and 0.10 accept only the codes they know, and RequestFailed is not one.
  return nil, vim.lsp.rpc.rpc_response_error(vim.lsp.protocol.ErrorCodes.InternalError, message)
end

---@param client table
---@param method string
---@return boolean
local function serves(client, method)
  local caps = client.server_capabilities or {}
  if method == "textDocument/prepareRename" then
    return type(caps.renameProvider) == "table" and caps.renameProvider.prepareProvider == true
  end
  local provided = caps[PROVIDER[method]]
  return provided ~= nil and provided ~= false
end

local function all_clients()
  return (vim.lsp.get_clients or vim.lsp.get_active_clients)()
end

---@param path string
---@param root string|nil
local function inside(path, root)
  return type(root) == "string" and (path == root or path:sub(1, #root + 1) == root .. "/")
end

--- Whether `client` could serve the file `fname` that Neovim has not loaded: its root holds
--- it, and its filetypes (when its config names them and Neovim can tell) include the file's.
local function could_serve(client, fname)
  local cfg = client.config or {}
  if not inside(fname, cfg.root_dir) then
    return false
  end
  if type(cfg.filetypes) ~= "table" or not (vim.filetype and vim.filetype.match) then
    return true
  end
  local ok, ft = pcall(vim.filetype.match, { filename = fname })
  return not ok or ft == nil or vim.tbl_contains(cfg.filetypes, ft)
end

--- The servers (not agent-lsp) that serve `method` for `uri`: those attached to its buffer when
--- it is loaded, else those that could serve the file (servers answer for files Neovim has not
--- opened); every server for workspace/symbol.
---@return table[] clients
---@return integer|nil bufnr
local function clients_for(method, uri)
  local bufnr = uri and util.loaded_buffer(uri)
  local fname = uri and vim.uri_to_fname(uri)
  local out = {}
  for _, c in ipairs(all_clients()) do
    if c.name ~= require("agent_lsp.client").NAME and serves(c, method) then
      local fits = not uri or (bufnr and vim.lsp.buf_is_attached(bufnr, c.id)) or (not bufnr and could_serve(c, fname))
      if fits then
        table.insert(out, c)
      end
    end
  end
  return out, bufnr
end

--- `params` with its position in the server's encoding (the agent counts UTF-16, as LSP's default).
local function in_encoding(client, params, bufnr)
  local enc = client.offset_encoding or "utf-16"
  if enc == "utf-16" or not bufnr or type(params.position) ~= "table" then
    return params
  end
  local pos = params.position
  local line = vim.api.nvim_buf_get_lines(bufnr, pos.line, pos.line + 1, false)[1] or ""
  local ok, byte = pcall(vim.str_byteindex, line, pos.character, true)
  local copy = vim.deepcopy(params)
  copy.position = { line = pos.line, character = util.units(line:sub(1, ok and byte or pos.character), enc) }
  return copy
end

--- Sends `method` to every client and waits for them all (or the timeout).
---@return table[] answers
---@return string[] errors
local function ask_all(clients, method, params, bufnr)
  local pending, answers, errors = #clients, {}, {}
  for _, c in ipairs(clients) do
    local sent = util.request(c, method, in_encoding(c, params, bufnr), function(err, result)
      if err then
        table.insert(errors, c.name .. ": " .. (err.message or vim.inspect(err)))
      elseif result ~= nil and result ~= vim.NIL then
        table.insert(answers, result)
      end
      pending = pending - 1
    end, bufnr)
    if not sent then
      table.insert(errors, c.name .. ": could not send " .. method)
      pending = pending - 1
    end
  end
  if not vim.wait(M.TIMEOUT_MS, function()
    return pending <= 0
  end, 1) then
    table.insert(errors, string.format("%d server(s) did not answer within %d ms", pending, M.TIMEOUT_MS))
  end
  return answers, errors
end

--- One answer from several servers' answers.
local function merge(method, answers)
  if LISTS[method] then
    local out = {}
    for _, a in ipairs(answers) do
      if islist(a) then
        vim.list_extend(out, a)
      else
        table.insert(out, a)
      end
    end
    return out
  end
  if method == "textDocument/hover" then
    local contents = {}
    for _, a in ipairs(answers) do
      if islist(a.contents) then
        vim.list_extend(contents, a.contents)
      elseif a.contents ~= nil then
        table.insert(contents, a.contents)
      end
    end
    return #contents > 0 and { contents = contents } or vim.NIL
  end
  -- A rename is one WorkspaceEdit: two servers' edits of one name would collide.
  return answers[1] or vim.NIL
end

--- Handler of agent/languageService.
---@param request {method: string, params: table}|nil
function M.handle(request)
  local method = type(request) == "table" and request.method or nil
  if not vim.tbl_contains(M.METHODS, method) then
    return nil, vim.lsp.rpc.rpc_response_error(vim.lsp.protocol.ErrorCodes.InvalidParams, "not a language-service method: " .. tostring(method))
  end
  local params = type(request.params) == "table" and request.params or {}
  if method == "textDocument/diagnostics" then
    return require("agent_lsp.diagnostics").answer(params)
  end
  local uri = params.textDocument and params.textDocument.uri or nil
  local clients, bufnr = clients_for(method, uri)
  if #clients == 0 then
    local file = uri and (" for " .. vim.fn.fnamemodify(vim.uri_to_fname(uri), ":~:.")) or ""
    return failure("no language server in Neovim serves " .. method .. file)
  end
  local answers, errors = ask_all(clients, method, params, bufnr)
  if #answers == 0 and #errors > 0 then
    return failure(table.concat(errors, "; "))
  end
  return merge(method, answers)
end

return M
