-- Prompt history, retry, /clear and /new: <Up>/<Down> on the input walk the prompts sent (and
-- bring a half-typed one back); :AgentRetry and <C-r> send the last prompt again; /clear opens
-- a fresh session in the same window and closes the old chat; /new keeps it.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "first prompt")
  T.wait_idle(chat)
  T.send(chat, "second prompt")
  T.wait_idle(chat)

  local row = require("agent_lsp.render").prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, { "half typed" })
  vim.api.nvim_win_set_cursor(0, { row + 2, 0 })
  T.feed("<Up>")
  T.eq(T.input(chat), "second prompt", "<Up>: the newest prompt")
  T.feed("<Up>")
  T.eq(T.input(chat), "first prompt", "<Up> again: the one before")
  T.feed("<Down>")
  T.eq(T.input(chat), "second prompt", "<Down>: newer")
  T.feed("i<Down><Esc>")
  T.eq(T.input(chat), "half typed", "<Down> past the newest (in insert mode) brings the draft back")
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  T.feed("<Down>")
  T.eq(vim.api.nvim_win_get_cursor(0)[1], 2, "above the input <Down> moves the cursor")
  T.eq(T.input(chat), "half typed", "and leaves the input alone")

  vim.cmd("AgentRetry")
  T.wait_idle(chat)
  local _, count = T.text(chat.buf):gsub("## You\nsecond prompt", "")
  T.eq(count, 2, ":AgentRetry sent the last prompt again")
  T.feed("<C-r>")
  T.wait_idle(chat)
  _, count = T.text(chat.buf):gsub("## You\nsecond prompt", "")
  T.eq(count, 3, "<C-r> too")

  -- /help is a table, with the plugin's own commands.
  T.send(chat, "/help")
  T.wait("the help table", function()
    return T.text(chat.buf):find("| Command | What it does |", 1, true) ~= nil
  end)
  T.contains(T.text(chat.buf), "| `/help` | List the slash commands. |", "a server command as a row")
  T.contains(T.text(chat.buf), "| `/clear` |", "the plugin's own commands too")

  local win = vim.api.nvim_get_current_win()
  local old = chat.buf
  T.send(chat, "/new")
  local fresh
  T.wait("the /new session", function()
    fresh = require("agent_lsp.chat").by_buffer(vim.api.nvim_win_get_buf(win))
    return fresh ~= nil and fresh ~= chat
  end)
  T.truthy(vim.api.nvim_buf_is_valid(old), "/new keeps the old chat")
  T.eq(vim.api.nvim_get_current_win(), win, "in the same window")
  T.send(fresh, "/clear")
  local cleared
  T.wait("the /clear session", function()
    cleared = require("agent_lsp.chat").by_buffer(vim.api.nvim_win_get_buf(win))
    return cleared ~= nil and cleared ~= fresh
  end)
  T.eq(vim.api.nvim_buf_is_valid(fresh.buf), false, "/clear closes the chat it was typed in")
  T.truthy(cleared.session_id ~= fresh.session_id, "a fresh session")
  T.eq(#vim.api.nvim_tabpage_list_wins(0), 2, "no new window")
end)
