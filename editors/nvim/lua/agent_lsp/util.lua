---@mod agent_lsp.util Small helpers shared by the modules, and the Neovim version shims.
---
--- Everything that differs between Neovim 0.7 and later releases is decided here, by feature,
--- so the other modules never test versions themselves.

local M = {}

local uv = vim.uv or vim.loop

M.uv = uv

--- The notification title every message of the plugin carries.
M.TITLE = "agent-lsp"

---@param msg string
---@param level? integer vim.log.levels value; INFO when absent
function M.notify(msg, level)
  vim.notify(msg, level or vim.log.levels.INFO, { title = M.TITLE })
end

---@param msg string
function M.warn(msg)
  M.notify(msg, vim.log.levels.WARN)
end

---@param msg string
function M.error(msg)
  M.notify(msg, vim.log.levels.ERROR)
end

--- Runs `fn` and reports an error through vim.notify instead of raising it.
---@param what string what was being done, for the message
---@param fn function
---@return boolean ok
---@return any result
function M.try(what, fn, ...)
  local ok, res = pcall(fn, ...)
  if not ok then
    M.error(string.format("%s failed: %s", what, tostring(res)))
  end
  return ok, res
end

--- An LSP error (or a missing answer) in words for a message.
---@param err table|string|nil the handler's `err` (a ResponseError {code, message})
---@return string
function M.error_text(err)
  if err == nil then
    return "no answer"
  end
  if type(err) == "table" and type(err.message) == "string" then
    return err.message
  end
  return type(err) == "string" and err or vim.inspect(err)
end

--- True when the running Neovim is at least `version` ("0.10").
---@param version string
---@return boolean
function M.has(version)
  return vim.fn.has("nvim-" .. version) == 1
end

--- Sends a request on a client. 0.11 made client methods take `self`; before, they did not.
---@param client table vim.lsp.Client
---@param method string
---@param params table|nil
---@param handler fun(err: table|nil, result: any, ctx: table)
---@param bufnr? integer
---@return boolean sent
function M.request(client, method, params, handler, bufnr)
  if M.has("0.11") then
    return (client:request(method, params, handler, bufnr))
  end
  return (client.request(method, params, handler, bufnr))
end

--- Sends a request and waits for its answer (at most `timeout_ms`); nil on timeout or error.
--- For command-line completion, which must answer at once.
---@param client table vim.lsp.Client
---@param method string
---@param params table|nil
---@param timeout_ms integer
---@return any|nil result
function M.request_sync(client, method, params, timeout_ms)
  local reply
  if M.has("0.11") then
    reply = client:request_sync(method, params, timeout_ms)
  else
    reply = client.request_sync(method, params, timeout_ms)
  end
  if reply and not reply.err then
    return reply.result
  end
  return nil
end

--- Sends a notification on a client.
---@param client table vim.lsp.Client
---@param method string
---@param params table|nil
---@return boolean sent
function M.notify_server(client, method, params)
  if M.has("0.11") then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

--- An ISO 8601 UTC time ("2026-11-30T14:05:09.123Z") as local time ("2026-11-30 15:05");
--- anything else comes back as it is.
---@param iso string|nil
---@return string
function M.local_time(iso)
  if type(iso) ~= "string" then
    return "?"
  end
  local y, mo, d, h, mi, s = iso:match("^(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)")
  if not y then
    return iso
  end
  local fields = { year = tonumber(y), month = tonumber(mo), day = tonumber(d), hour = tonumber(h), min = tonumber(mi), sec = tonumber(s) }
  -- os.time reads the fields as local time; the difference to UTC at that moment corrects it.
  local as_local = os.time(fields)
  local utc_of_local = os.time(os.date("!*t", as_local))
  return os.date("%Y-%m-%d %H:%M", as_local + (as_local - utc_of_local))
end

--- Splits text into lines on "\n"; a trailing newline does not make an empty last line.
---@param text string
---@return string[] lines
---@return boolean eol whether the text ended with a newline
function M.split_lines(text)
  local eol = text:sub(-1) == "\n"
  if eol then
    text = text:sub(1, -2)
  end
  return vim.split(text, "\n", { plain = true }), eol
end

--- The number of `encoding` units in the string `s` (LSP character offsets).
---@param s string
---@param encoding string "utf-8"|"utf-16"|"utf-32"
---@return integer
function M.units(s, encoding)
  if encoding == "utf-8" then
    return #s
  end
  local n = 0
  for i = 1, #s do
    local b = s:byte(i)
    -- Count lead bytes only; a 4-byte sequence is two UTF-16 code units (a surrogate pair).
    if b < 0x80 or b >= 0xC0 then
      n = n + ((encoding == "utf-16" and b >= 0xF0) and 2 or 1)
    end
  end
  return n
end

--- An LSP position for a 0-based row and byte column of a buffer.
---@param bufnr integer
---@param row integer 0-based
---@param col integer 0-based byte column
---@param encoding string
---@return table position
function M.position(bufnr, row, col, encoding)
  local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
  return { line = row, character = M.units(line:sub(1, col), encoding) }
end

--- The LSP range of whole lines `first`..`last` (1-based, inclusive).
---@param bufnr integer
---@param first integer
---@param last integer
---@param encoding string
---@return table range
function M.line_range(bufnr, first, last, encoding)
  local last_line = vim.api.nvim_buf_get_lines(bufnr, last - 1, last, false)[1] or ""
  return { start = { line = first - 1, character = 0 }, ["end"] = M.position(bufnr, last - 1, #last_line, encoding) }
end

--- Every diagnostic (any source) touching rows `first`..`last` (0-based), in LSP form: the
--- agent should see a linter's complaint even when another server or plugin reported it.
---@param bufnr integer
---@param first integer
---@param last integer
---@param encoding string
---@return table[] diagnostics
function M.lsp_diagnostics(bufnr, first, last, encoding)
  local out = {}
  if not vim.diagnostic then
    return out
  end
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local end_lnum = d.end_lnum or d.lnum
    if d.lnum <= last and end_lnum >= first then
      table.insert(out, {
        range = {
          start = M.position(bufnr, d.lnum, d.col or 0, encoding),
          ["end"] = M.position(bufnr, end_lnum, d.end_col or d.col or 0, encoding),
        },
        message = d.message,
        severity = d.severity,
        source = d.source,
        code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or nil,
      })
    end
  end
  table.sort(out, function(a, b)
    return (a.severity or 4) < (b.severity or 4)
  end)
  return out
end

--- Directory of a buffer's file, or the cwd for unnamed buffers.
---@param bufnr integer
---@return string
function M.buf_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return vim.fn.getcwd()
  end
  return vim.fn.fnamemodify(name, ":p:h")
end

--- The loaded buffer of the file `uri` names, or nil (never creates one).
---@param uri string
---@return integer|nil
function M.loaded_buffer(uri)
  local ok, fname = pcall(vim.uri_to_fname, uri)
  if not ok then
    return nil
  end
  local bufnr = vim.fn.bufnr(fname)
  if bufnr == -1 or not vim.api.nvim_buf_is_loaded(bufnr) then
    return nil
  end
  return bufnr
end

--- True for buffers that hold a file the agent may read and edit.
---@param bufnr integer
---@return boolean
function M.is_file_buffer(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return false
  end
  -- A file opened unseen for its diagnostics (agent_lsp.diagnostics) is the language servers',
  -- not the user's: the agent keeps reading and writing it on disk.
  if vim.b[bufnr].agent_lsp_unseen then
    return false
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  return name ~= "" and not name:match("^%a[%w+.-]*://") and vim.fn.isdirectory(name) == 0
end

--- Creates a scratch buffer that never asks to be saved.
---@param name string
---@param filetype? string
---@return integer bufnr
function M.scratch_buffer(name, filetype)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  -- A second buffer of the same name (a reloaded plugin, a second chat) must not collide.
  local ok = pcall(vim.api.nvim_buf_set_name, buf, name)
  if not ok then
    pcall(vim.api.nvim_buf_set_name, buf, name .. " (" .. buf .. ")")
  end
  if filetype then
    vim.bo[buf].filetype = filetype
  end
  return buf
end

--- Sets buffer-local normal-mode (or other `modes`) mappings; a false/nil lhs is skipped.
---@param buf integer
---@param modes string|string[]
---@param lhs string|false|nil
---@param rhs function
---@param desc string
function M.map(buf, modes, lhs, rhs, desc)
  if not lhs or lhs == "" then
    return
  end
  vim.keymap.set(modes, lhs, rhs, { buffer = buf, nowait = true, silent = true, desc = desc })
end

return M
