-- The review never applies an empty file by accident: `u` past your own edits stops at the
-- file's text (the window's fill is no undo step); a result emptied by hand is asked about
-- before it is taken ("Keep reviewing" keeps the review open). Finishing with nothing taken
-- declines the change, and the chat shows it declined. :AgentCancel works from the review tab:
-- the review closes and the turn stops.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function review_window()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match("^agent%-lsp://review/1/app%.txt %(current%)$") then
      return win
    end
  end
end

local function wait_review()
  local win
  T.wait("the review", function()
    win = review_window()
    return win ~= nil and vim.api.nvim_get_current_win() == win
  end)
  return win
end

T.run(function()
  T.forbid_blocking_prompts()
  local notes = {}
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  local buf = T.open("app.txt")
  local original = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local chat = T.open_chat()
  T.send(chat, "Change line 2")
  local left = wait_review()
  local result = vim.api.nvim_win_get_buf(left)

  -- One u too many: the result keeps the file's text, it never becomes empty.
  T.feed("uuu")
  T.eq(vim.api.nvim_buf_get_lines(result, 0, -1, false), original, "u cannot undo the window's fill")

  -- Emptied by hand: <CR> asks first; keeping on reviewing leaves everything as it was.
  T.feed("ggdG")
  T.eq(vim.api.nvim_buf_get_lines(result, 0, -1, false), { "" }, "the result emptied by hand")
  local seen = T.stub_select("^Keep reviewing$")
  T.feed("<CR>")
  T.wait("the question about the empty result", function()
    return #seen == 1
  end)
  T.contains(seen[1].prompt, "the result of app.txt is empty, the proposal is not", "the question says what is empty")
  vim.wait(100)
  T.truthy(review_window() ~= nil, "Keep reviewing leaves the review open")
  T.feed("u")
  T.eq(vim.api.nvim_buf_get_lines(result, 0, -1, false), original, "the deletion undone")

  -- Finished with nothing taken: declined, and shown so.
  T.feed("<CR>")
  T.wait_idle(chat)
  T.wait_text(chat, "[declined]")
  T.eq(vim.api.nvim_buf_get_lines(buf, 0, -1, false), original, "nothing applied")

  -- :AgentCancel from the review's tab closes the review and stops the turn.
  T.send(chat, "Change line 2 again")
  wait_review()
  vim.cmd("AgentCancel")
  T.wait("the review to close", function()
    return review_window() == nil
  end)
  T.wait_idle(chat)
  T.not_contains(table.concat(notes, "\n"), "no chat to cancel", "AgentCancel found the chat")
  T.eq(vim.api.nvim_buf_get_lines(buf, 0, -1, false), original, "nothing applied after the cancel")
end)
