---@mod agent_lsp.chat_window Where the chat shows: vsplit, split or float, and one window per tab.
---
--- A chat opens in the tab's chat window when there is one (a new session or a loaded one
--- replaces the chat shown there instead of adding a split), else in a new window of the
--- configured layout.

local config = require("agent_lsp.config")
local util = require("agent_lsp.util")

local M = {}

--- Columns (vsplit) or lines (split) always left to the other windows.
M.MIN_SOURCE_COLUMNS = 40
M.MIN_SOURCE_LINES = 8
--- The share of the editor a floating chat covers.
M.FLOAT_SHARE = 0.8

-- Folds: a tool call's header opens a fold that holds its detail lines.
local FOLDEXPR = [[getline(v:lnum)=~#'^▸ \['?'>1':(getline(v:lnum)=~#'^  │'?'1':'0')]]

local function set_win_option(win, name, value)
  if util.has("0.8") then
    vim.api.nvim_set_option_value(name, value, { win = win, scope = "local" })
  else
    vim.wo[win][name] = value
  end
end

--- Sets the chat's window options: wrapped markdown, tool calls folded to one line.
---@param win integer
function M.setup(win)
  for name, value in pairs({
    wrap = true,
    linebreak = true,
    number = false,
    relativenumber = false,
    signcolumn = "no",
    foldmethod = "expr",
    foldexpr = FOLDEXPR,
    foldtext = "getline(v:foldstart)",
    foldlevel = 0,
    foldminlines = 0,
    foldenable = true,
  }) do
    set_win_option(win, name, value)
  end
end

--- Every window (of every tab) that shows `buf`.
---@param buf integer
---@return integer[]
function M.all(buf)
  return vim.tbl_filter(function(win)
    return vim.api.nvim_win_get_buf(win) == buf
  end, vim.api.nvim_list_wins())
end

--- The layout of the options: `layout`, else derived from `position` (top/bottom split).
---@param opts agent_lsp.ChatConfig
---@return "vsplit"|"split"|"float"
function M.layout(opts)
  if opts.layout then
    return opts.layout
  end
  return (opts.position == "top" or opts.position == "bottom") and "split" or "vsplit"
end

--- The size of a split: a share of `total` (size < 1) or a count, leaving `keep` to the rest.
---@param total integer
---@param size number
---@param keep integer
---@return integer
function M.split_size(total, size, keep)
  local n = size < 1 and math.floor(total * size) or math.floor(size)
  return math.max(1, math.min(n, total - keep))
end

--- Windows of the current tab that show `buf`.
---@param buf integer
---@return integer[]
function M.in_tab(buf)
  return vim.tbl_filter(function(win)
    return vim.api.nvim_win_get_buf(win) == buf
  end, vim.api.nvim_tabpage_list_wins(0))
end

--- A window of the current tab that shows some chat (`is_chat(buf)`), to reuse.
---@param is_chat fun(buf: integer): boolean
---@return integer|nil
function M.chat_window(is_chat)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if is_chat(vim.api.nvim_win_get_buf(win)) then
      return win
    end
  end
  return nil
end

local function open_float(buf)
  local width = math.floor(vim.o.columns * M.FLOAT_SHARE)
  local height = math.floor((vim.o.lines - vim.o.cmdheight - 2) * M.FLOAT_SHARE)
  return vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((vim.o.lines - height) / 2) - 1,
    col = math.floor((vim.o.columns - width) / 2),
    border = "rounded",
    style = "minimal",
  })
end

--- Opens a new window of the configured layout showing `buf`; the cursor goes into it.
---@param buf integer
---@return integer win
function M.open(buf)
  local opts = config.options.chat
  local layout = M.layout(opts)
  if layout == "float" then
    return open_float(buf)
  end
  local cmd
  if layout == "split" then
    cmd = opts.position == "top" and "topleft split" or "botright split"
  else
    cmd = opts.position == "left" and "topleft vsplit" or "botright vsplit"
  end
  vim.cmd(cmd)
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  if layout == "split" then
    vim.api.nvim_win_set_height(win, M.split_size(vim.o.lines - vim.o.cmdheight - 1, opts.size, M.MIN_SOURCE_LINES))
  else
    vim.api.nvim_win_set_width(win, M.split_size(vim.o.columns, opts.size, M.MIN_SOURCE_COLUMNS))
  end
  return win
end

return M
