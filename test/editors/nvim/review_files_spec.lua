-- A change to two files is reviewed file after file in one tab: the first keeps one of its two
-- hunks, then "accept all" takes the second file whole.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function review_window(pattern)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match(pattern) then
      return win
    end
  end
end

T.run(function()
  T.forbid_blocking_prompts()
  local buf = T.open("a.txt")
  local chat = T.open_chat()
  T.send(chat, "Patch both files")
  local left
  T.wait("the review of the first file", function()
    left = review_window("^agent%-lsp://review/1/a%.txt %(current%)$")
    return left ~= nil
  end)
  T.contains(vim.wo[left].statusline, "agent-lsp review 1/2: a.txt", "file 1 of 2")
  T.feed("gh")
  T.feed("<CR>")
  T.wait("the review of the second file", function()
    left = review_window("^agent%-lsp://review/2/b%.txt %(current%)$")
    return left ~= nil
  end)
  T.contains(vim.wo[left].statusline, "agent-lsp review 2/2: b.txt", "file 2 of 2")
  T.feed("ga")
  T.wait_idle(chat)
  T.eq(vim.api.nvim_buf_get_lines(buf, 0, -1, false), { "line 1", "line 2 changed", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9", "line 10" }, "a.txt keeps only its first hunk")
  T.eq(T.read_file("b.txt"), "alpha\nBETA\ngamma\n", "b.txt (not open) is written whole")
  T.eq(review_window("^agent%-lsp://review/"), nil, "the review is closed")
end)
