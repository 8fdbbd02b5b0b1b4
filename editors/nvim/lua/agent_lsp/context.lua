---@mod agent_lsp.context Context named in the chat: #buffer, #buffers, #selection, #diagnostics,
--- #viewport and @file.
---
--- The words stay in the prompt as written; what they name is attached as extra content blocks
--- of agent/prompt (a file as a `resource`, the rest as text), and the chat shows one folded
--- line per attachment. "The buffer" is the file buffer you were in last (the chat is not one).

local util = require("agent_lsp.util")

local M = {}

--- The `#` words and what each attaches.
M.HASH_WORDS = {
  buffer = "the current buffer (#buffer:name for another), unsaved text included",
  buffers = "every listed file buffer",
  selection = "the last visual selection in the current buffer",
  diagnostics = "the current buffer's diagnostics, from every source",
  viewport = "the lines visible in the current buffer's window",
}

---@type {buf: integer|nil, win: integer|nil}
local last = {}

--- Remembers the file buffer (and window) the user is in; called on BufEnter/WinEnter.
---@param buf integer
function M.track(buf)
  if util.is_file_buffer(buf) then
    last.buf, last.win = buf, vim.api.nvim_get_current_win()
  end
end

--- The file buffer the user was in last, if it still exists.
---@return integer|nil
function M.source_buffer()
  if last.buf and vim.api.nvim_buf_is_valid(last.buf) then
    return last.buf
  end
  return nil
end

local function rel(buf)
  return vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":~:.")
end

local function fenced(lines)
  local out = { "```" }
  vim.list_extend(out, lines)
  table.insert(out, "```")
  return table.concat(out, "\n")
end

local function buffer_block(buf)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  return {
    block = { type = "resource", uri = vim.uri_from_bufnr(buf), text = table.concat(lines, "\n") .. "\n" },
    label = string.format("buffer %s (%d lines)", rel(buf), #lines),
  }
end

local function listed_file_buffers()
  return vim.tbl_filter(function(b)
    return vim.bo[b].buflisted and util.is_file_buffer(b) and vim.api.nvim_buf_is_loaded(b)
  end, vim.api.nvim_list_bufs())
end

--- The listed file buffer whose name ends with `name`.
local function named_buffer(name)
  for _, b in ipairs(listed_file_buffers()) do
    local full = vim.api.nvim_buf_get_name(b)
    if full == name or full:sub(-#name - 1) == "/" .. name then
      return b
    end
  end
  return nil
end

local function selection_block(buf)
  local s = vim.api.nvim_buf_get_mark(buf, "<")
  local e = vim.api.nvim_buf_get_mark(buf, ">")
  if s[1] == 0 or e[1] == 0 then
    return nil, "no visual selection in " .. rel(buf)
  end
  local lines = vim.api.nvim_buf_get_lines(buf, s[1] - 1, e[1], false)
  local text = string.format("Selected in %s, lines %d-%d:\n%s", rel(buf), s[1], e[1], fenced(lines))
  return { block = { type = "text", text = text }, label = string.format("selection %s:%d-%d", rel(buf), s[1], e[1]) }
end

local SEVERITY = { "error", "warning", "info", "hint" }

local function diagnostics_block(buf)
  local items = vim.diagnostic and vim.diagnostic.get(buf) or {}
  table.sort(items, function(a, b)
    return a.lnum < b.lnum
  end)
  local lines = {}
  for _, d in ipairs(items) do
    local source = d.source and (" [" .. d.source .. "]") or ""
    table.insert(lines, string.format("- line %d: %s%s: %s", d.lnum + 1, SEVERITY[d.severity] or "note", source, (d.message or ""):gsub("\n", " ")))
  end
  local body = #lines > 0 and table.concat(lines, "\n") or "(none)"
  return {
    block = { type = "text", text = string.format("Diagnostics of %s (every source):\n%s", rel(buf), body) },
    label = string.format("diagnostics %s (%d)", rel(buf), #lines),
  }
end

local function viewport_block(buf)
  local win = (last.win and vim.api.nvim_win_is_valid(last.win) and vim.api.nvim_win_get_buf(last.win) == buf) and last.win or vim.fn.bufwinid(buf)
  if not win or win == -1 then
    return nil, rel(buf) .. " is not in a window"
  end
  local first = vim.fn.line("w0", win)
  local final = vim.fn.line("w$", win)
  local lines = vim.api.nvim_buf_get_lines(buf, first - 1, final, false)
  local text = string.format("Visible in %s, lines %d-%d:\n%s", rel(buf), first, final, fenced(lines))
  return { block = { type = "text", text = text }, label = string.format("viewport %s:%d-%d", rel(buf), first, final) }
end

--- One `#word` (with its `:argument`) as attachments.
local function hash(word, arg)
  local source = M.source_buffer()
  if word == "buffers" then
    return vim.tbl_map(buffer_block, listed_file_buffers())
  end
  local buf = source
  if arg ~= "" then
    buf = named_buffer(arg)
    if not buf then
      return nil, "no buffer named " .. arg
    end
  end
  if not buf then
    return nil, "no file buffer to take #" .. word .. " from"
  end
  local build = ({ buffer = buffer_block, selection = selection_block, diagnostics = diagnostics_block, viewport = viewport_block })[word]
  local item, err = build(buf)
  return item and { item } or nil, err
end

--- One `@path` as a file attachment (the server reads it, from the buffer when open).
local function at_file(path, root)
  local full = vim.fn.fnamemodify(root .. "/" .. path, ":p")
  if vim.fn.filereadable(path) == 1 then
    full = vim.fn.fnamemodify(path, ":p")
  elseif vim.fn.filereadable(full) ~= 1 then
    return nil, "no file " .. path
  end
  return { { block = { type = "resource", uri = vim.uri_from_fname(full) }, label = "file " .. vim.fn.fnamemodify(full, ":~:.") } }
end

--- The attachments a prompt names, and the problems (an unknown buffer, no selection).
---@param text string
---@param root string project root, for @paths
---@return {block: table, label: string}[] items
---@return string[] problems
function M.collect(text, root)
  local items, problems = {}, {}
  local function add(found, err)
    if found then
      vim.list_extend(items, found)
    elseif err then
      table.insert(problems, err)
    end
  end
  for word, arg in text:gmatch("#(%a+):?([^%s]*)") do
    if M.HASH_WORDS[word] then
      add(hash(word, arg))
    end
  end
  for path in (" " .. text):gmatch("%s@([^%s]+)") do
    add(at_file(path, root))
  end
  return items, problems
end

return M
