---@mod agent_lsp.diagnostics The answer to the agent's `textDocument/diagnostics`.
---
--- Diagnostics come from |vim.diagnostic.get()|, so every source counts (language servers,
--- linters). With a `uri`, the answer also says how many language servers (not agent-lsp) have
--- the file, so the agent never takes "none" for "no errors". A file Neovim has not loaded is
--- opened unseen: loaded in a hidden, unlisted buffer with its filetype (so the language servers
--- configured for it attach, as they would when you open it), then the answer waits up to the
--- agent's `waitMs` for their first report, and the buffer is wiped again. agent-lsp itself is
--- never attached to it: the agent keeps reading and writing that file on disk.

local util = require("agent_lsp.util")

local M = {}

--- Most milliseconds a request may keep Neovim waiting for a report, whatever the agent asks.
M.MAX_WAIT_MS = 30000

--- A vim.diagnostic item in LSP form, with its file.
local function lsp_diagnostic(d)
  local bufnr = d.bufnr
  return {
    uri = vim.uri_from_bufnr(bufnr),
    range = {
      start = util.position(bufnr, d.lnum, d.col or 0, "utf-16"),
      ["end"] = util.position(bufnr, d.end_lnum or d.lnum, d.end_col or d.col or 0, "utf-16"),
    },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or nil,
  }
end

--- The clients attached to `bufnr`, those still starting included (a server started for a file
--- just opened has not answered `initialize` yet, and `get_clients()` leaves it out).
local function buffer_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, _uninitialized = true })
  end
  -- 0.7 to 0.9 list only initialized clients; a starting one has the next ids, and
  -- get_client_by_id and buf_is_attached know it.
  local last = 0
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    last = math.max(last, c.id)
  end
  local out = {}
  for id = 1, last + 16 do
    local c = vim.lsp.get_client_by_id(id)
    if c and vim.lsp.buf_is_attached(bufnr, id) then
      table.insert(out, c)
    end
  end
  return out
end

--- How many language servers (not agent-lsp) are attached to `bufnr`, starting ones included.
---@param bufnr integer
---@return integer
function M.attached_servers(bufnr)
  local n = 0
  for _, c in ipairs(buffer_clients(bufnr)) do
    if c.name ~= require("agent_lsp.client").NAME then
      n = n + 1
    end
  end
  return n
end

local function items_of(bufnr)
  local out = {}
  for _, d in ipairs(bufnr and vim.diagnostic.get(bufnr) or vim.diagnostic.get()) do
    if vim.api.nvim_buf_is_loaded(d.bufnr) then
      table.insert(out, lsp_diagnostic(d))
    end
  end
  return out
end

--- Loads the file of `uri` unseen, for its language servers; nil when there is no such file.
---@param uri string
---@return integer|nil bufnr
---@return boolean existed the buffer was in the list before (unloaded): it is kept there
local function open_unseen(uri)
  local ok, fname = pcall(vim.uri_to_fname, uri)
  if not ok or vim.fn.filereadable(fname) ~= 1 then
    return nil
  end
  local existed = vim.fn.bufnr(fname) ~= -1
  local bufnr = vim.fn.bufadd(fname)
  -- Marked before loading: the BufReadPost that loading runs must not attach agent-lsp.
  vim.b[bufnr].agent_lsp_unseen = true
  if not existed then
    vim.bo[bufnr].buflisted = false
  end
  vim.fn.bufload(bufnr)
  if vim.bo[bufnr].filetype == "" then
    vim.api.nvim_buf_call(bufnr, function()
      vim.cmd("silent! filetype detect")
    end)
  end
  return bufnr, existed
end

--- Waits until a diagnostic report reaches `bufnr` (a server published, even an empty list) or
--- `wait_ms` pass; true when one came.
local function wait_for_report(bufnr, wait_ms)
  local reported = false
  local id = vim.api.nvim_create_autocmd("DiagnosticChanged", {
    buffer = bufnr,
    callback = function()
      reported = true
    end,
  })
  vim.wait(wait_ms, function()
    return reported
  end, 10)
  pcall(vim.api.nvim_del_autocmd, id)
  return reported
end

--- The diagnostics of a file Neovim has not loaded: opened unseen, its servers' first report
--- waited for, then closed again.
local function of_unseen_file(uri, wait_ms)
  local bufnr, existed = open_unseen(uri)
  if not bufnr then
    return { diagnostics = {}, servers = 0 }
  end
  local servers = M.attached_servers(bufnr)
  local published = servers > 0 and wait_for_report(bufnr, math.min(wait_ms, M.MAX_WAIT_MS))
  local answer = { diagnostics = items_of(bufnr), servers = servers, opened = true, published = published }
  if existed then
    -- A buffer you had listed (not loaded) stays in the list as it was.
    vim.b[bufnr].agent_lsp_unseen = nil
    pcall(vim.api.nvim_buf_delete, bufnr, { unload = true })
  else
    pcall(vim.api.nvim_buf_delete, bufnr, { force = true })
  end
  return answer
end

--- The answer to `textDocument/diagnostics` {uri?, waitMs?}: the current diagnostics of the
--- file's buffer, with how many servers have it; of a file not loaded, what its servers report
--- once it is opened unseen (with `waitMs`); without `uri`, of every loaded buffer.
---@param params table
---@return table {diagnostics, servers?, opened?, published?}
function M.answer(params)
  local uri = type(params) == "table" and params.uri or nil
  if not uri then
    return { diagnostics = items_of(nil) }
  end
  local bufnr = util.loaded_buffer(uri)
  if bufnr then
    return { diagnostics = items_of(bufnr), servers = M.attached_servers(bufnr) }
  end
  if type(params.waitMs) == "number" and params.waitMs >= 0 then
    return of_unseen_file(uri, params.waitMs)
  end
  return { diagnostics = {}, servers = 0 }
end

return M
