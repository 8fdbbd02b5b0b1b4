-- A change to two files is reviewed in one tab: the panel on top shows the agent's explanation,
-- both files and every key; the sides are labelled. A hunk taken in the first file stays as a
-- draft across ]f/[f; <CR> finishes it (one hunk of two), gy takes the second file whole.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function review_window(pattern)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match(pattern) then
      return win
    end
  end
end

local function panel_text()
  local win = review_window("^agent%-lsp://review/files")
  T.truthy(win, "the review panel is open")
  return T.text(vim.api.nvim_win_get_buf(win))
end

local function wait_file(pattern)
  local win
  T.wait("the review window " .. pattern, function()
    win = review_window(pattern)
    return win ~= nil and vim.api.nvim_get_current_win() == win
  end)
  return win
end

T.run(function()
  T.forbid_blocking_prompts()
  local buf = T.open("a.txt")
  local chat = T.open_chat()
  T.send(chat, "Patch both files")
  local left = wait_file("^agent%-lsp://review/1/a%.txt %(current%)$")
  T.contains(vim.wo[left].statusline, "agent-lsp review 1/2: a.txt", "file 1 of 2")
  local panel = panel_text()
  T.contains(panel, "I will patch both files.", "the agent's explanation on top")
  T.contains(panel, "> [ ] a.txt", "the current file marked")
  T.contains(panel, "  [ ] b.txt", "the other file listed")
  for _, hint in ipairs({ "]c/[c hunks", "gh take hunk", "gy take file", "<CR> finish file", "]f next file", "[f previous file", "ga accept all left", "gr reject", "q quit" }) do
    T.contains(panel, hint, "the keys listed")
  end
  local right = review_window("^agent%-lsp://review/1/a%.txt %(proposed%)$")
  if vim.fn.has("nvim-0.8") == 1 then
    T.contains(vim.wo[left].winbar, "current (your result)", "the left side labelled")
    T.contains(vim.wo[right].winbar, "proposed", "the right side labelled")
  else
    T.contains(vim.wo[left].statusline, "current (your result)", "the left side labelled")
    T.contains(vim.wo[right].statusline, "proposed", "the right side labelled")
  end

  T.feed("gh")
  T.feed("]f")
  left = wait_file("^agent%-lsp://review/2/b%.txt %(current%)$")
  T.contains(panel_text(), "> [ ] b.txt", "]f moved to the second file")
  T.contains(panel_text(), "  [~] a.txt", "a.txt left with a hunk taken")
  T.feed("[f")
  left = wait_file("^agent%-lsp://review/1/a%.txt %(current%)$")
  T.eq(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(left), 1, 2, false)[1], "line 2 changed", "the hunk taken is kept across files")
  T.feed("<CR>")
  left = wait_file("^agent%-lsp://review/2/b%.txt %(current%)$")
  T.contains(panel_text(), "  [~] a.txt", "a.txt finished with part of its change")
  T.feed("gy")
  T.wait_idle(chat)
  T.eq(vim.api.nvim_buf_get_lines(buf, 0, -1, false), { "line 1", "line 2 changed", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9", "line 10" }, "a.txt keeps only its first hunk")
  T.eq(T.read_file("b.txt"), "alpha\nBETA\ngamma\n", "b.txt (not open) is written whole")
  T.eq(review_window("^agent%-lsp://review/"), nil, "the review is closed")
end)
