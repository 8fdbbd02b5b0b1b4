-- In ask mode a file change opens the diff review: current and proposed side by side; taking
-- the first of two hunks and finishing applies only that hunk. A second proposal is rejected
-- with gR and a reason, after q asked (a hunk was taken) and "Keep reviewing" kept it open; a
-- third is taken whole with ga.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function find_review()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win))
    if name:match("^agent%-lsp://review/1/app%.txt %(current%)$") then
      return win
    end
  end
end

T.run(function()
  T.forbid_blocking_prompts()
  local buf = T.open("app.txt")
  local original = T.text(buf)
  local chat = T.open_chat()
  local tabs = #vim.api.nvim_list_tabpages()
  T.send(chat, "Change lines 2 and 9")
  local left
  T.wait("the diff review tab", function()
    left = find_review()
    return left ~= nil
  end)
  T.eq(#vim.api.nvim_list_tabpages(), tabs + 1, "the review opens in its own tab")
  local wins = {}
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.wo[w].diff then
      table.insert(wins, w)
    end
  end
  T.eq(#wins, 2, "current and proposed side by side, in diff mode")
  local right = wins[1] == left and wins[2] or wins[1]
  local proposed = vim.api.nvim_win_get_buf(right)
  T.eq(vim.api.nvim_buf_get_lines(proposed, 1, 2, false)[1], "line 2 changed", "the proposal on the right")
  T.contains(vim.wo[left].statusline, "agent-lsp review 1/1: app.txt", "the review names the file")
  T.eq(vim.api.nvim_get_current_win(), left, "the cursor starts in the result window")
  T.eq(vim.api.nvim_win_get_cursor(left)[1], 2, "on the first hunk")

  T.feed("gh")
  local result = vim.api.nvim_win_get_buf(left)
  T.eq(vim.api.nvim_buf_get_lines(result, 1, 2, false)[1], "line 2 changed", "the first hunk taken")
  T.eq(vim.api.nvim_buf_get_lines(result, 8, 9, false)[1], "line 9", "the second hunk not taken")
  T.eq(vim.api.nvim_win_get_cursor(left)[1], 9, "the cursor moved on to the next hunk")
  T.feed("<CR>")

  T.wait("the review to close", function()
    return #vim.api.nvim_list_tabpages() == tabs and find_review() == nil
  end)
  T.wait("the accepted hunk in the buffer", function()
    return vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1] == "line 2 changed"
  end)
  T.eq(vim.api.nvim_buf_get_lines(buf, 8, 9, false)[1], "line 9", "the rejected hunk is not applied")
  T.wait_idle(chat)

  -- The next proposal: a hunk taken, then q asks; "Keep reviewing" stays, "Reject" refuses all.
  local accepted = T.text(buf)
  T.send(chat, "Change it again")
  T.wait("the second review", function()
    return find_review() ~= nil
  end)
  T.feed("gh")
  local seen = T.stub_select("Keep reviewing")
  T.feed("q")
  vim.wait(200)
  T.eq(#seen, 1, "q asks after a hunk was taken")
  T.contains(seen[1].prompt, "you took part of the change", "the question says why")
  T.truthy(find_review() ~= nil, "Keep reviewing leaves the review open")
  -- gR refuses with the user's words (the model gets them).
  vim.ui.input = function(_, on_confirm)
    vim.schedule(function()
      on_confirm("keep line 5 as it is")
    end)
  end
  T.feed("gR")
  T.wait_idle(chat)
  T.eq(T.text(buf), accepted, "a rejected proposal changes nothing")
  T.eq(#vim.api.nvim_list_tabpages(), tabs, "the review tab is closed")
  T.truthy(original ~= accepted, "the first review changed the buffer")

  -- The third proposal is taken whole with ga.
  T.send(chat, "Change line 7")
  T.wait("the third review", function()
    return find_review() ~= nil
  end)
  T.feed("ga")
  T.wait_idle(chat)
  T.eq(vim.api.nvim_buf_get_lines(buf, 6, 7, false)[1], "line seven", "ga takes the proposal")
end)
