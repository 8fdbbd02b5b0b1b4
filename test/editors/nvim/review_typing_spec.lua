-- Typing in the chat while the review opens: the review opens in normal mode (not in the insert
-- mode the chat was in) and takes none of the keys typed just before it opened ("xxx" would be
-- typed into the result in insert mode, or delete from it in normal mode). Unlike the other specs
-- this one returns to Neovim's main loop in insert mode, as a user typing does, and finishes
-- from a timer.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function finish(ok, err)
  if ok then
    io.stderr:write("[spec] passed\n")
    vim.cmd("qall!")
  else
    io.stderr:write("[spec] FAILED: " .. tostring(err) .. "\n")
    vim.cmd("cquit 1")
  end
end

local function review_window()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match("^agent%-lsp://review/1/app%.txt %(current%)$") then
      return win
    end
  end
end

local state = {}

local function setup()
  T.forbid_blocking_prompts()
  vim.notify = function(msg)
    table.insert(state.notes, msg)
  end
  state.notes = {}
  state.buf = T.open("app.txt")
  state.original = vim.api.nvim_buf_get_lines(state.buf, 0, -1, false)
  state.chat = T.open_chat()
  -- The user types "xxx" just as the review opens: the keys are read after it opened.
  local diff = require("agent_lsp.diff")
  local review = diff.review
  diff.review = function(opts)
    state.mode_at_open = vim.api.nvim_get_mode().mode
    vim.api.nvim_feedkeys("xxx", "t", false)
    return review(opts)
  end
  T.send(state.chat, "Change line 2")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(state.chat.buf))
end

local function check()
  T.eq(state.mode_at_open, "i", "the review opened while the chat was in insert mode")
  local left = T.truthy(review_window(), "the review window")
  T.eq(vim.api.nvim_get_mode().mode, "n", "the review is in normal mode")
  T.eq(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(left), 0, -1, false), state.original, "no typed key reached the result")
  T.contains(table.concat(state.notes, "\n"), "3 key(s) you typed just before were not taken", "the user is told")
  T.feed("gy")
  T.wait_idle(state.chat)
  T.eq(vim.api.nvim_buf_get_lines(state.buf, 1, 2, false)[1], "line 2 changed", "the change taken whole")
end

local ok, err = xpcall(setup, debug.traceback)
if not ok then
  finish(false, err)
  return
end
vim.cmd("startinsert")
-- Polled from the main loop (not vim.wait), so insert mode and typed keys are processed as they
-- are for a user: the review must be open and Neovim back in normal mode, then keys still
-- queued get 300 ms to reach it before the check.
local deadline = vim.loop.now() + 40000
local function poll()
  if review_window() and vim.api.nvim_get_mode().mode ~= "i" then
    vim.defer_fn(function()
      finish(xpcall(check, debug.traceback))
    end, 300)
  elseif vim.loop.now() > deadline then
    finish(false, "timed out waiting for the review in normal mode (mode " .. vim.api.nvim_get_mode().mode .. ")")
  else
    vim.defer_fn(poll, 20)
  end
end
vim.defer_fn(poll, 20)
