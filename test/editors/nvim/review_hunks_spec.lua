-- gh takes a hunk whole on every Neovim, whatever 'diffopt' splits: three changed lines plus an
-- added one are one hunk (linematch, the default from 0.11 and set here where 0.9+ has it, shows
-- them as pieces). After taking, the cursor goes to the next hunk not taken, wrapping, from
-- either window; finishing a file with hunks left untaken says so before its result is written.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function review_wins()
  local left, right
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local name = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win))
    if name:match("^agent%-lsp://review/.*%(current%)$") then
      left = win
    elseif name:match("^agent%-lsp://review/.*%(proposed%)$") then
      right = win
    end
  end
  return left, right
end

local function wait_review()
  local left, right
  T.wait("the diff review", function()
    left, right = review_wins()
    return left ~= nil and right ~= nil
  end)
  return left, right
end

local function lines_of(win, first, last)
  return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), first - 1, last, false)
end

T.run(function()
  T.forbid_blocking_prompts()
  if vim.fn.has("nvim-0.9") == 1 then
    vim.opt.diffopt:append("linematch:40")
  end
  local notes = {}
  local notify = vim.notify
  local buf = T.open("app.txt")
  local original = T.text(buf)
  vim.notify = function(msg, level, opts)
    table.insert(notes, { msg = msg, file = T.text(buf) })
    return notify(msg, level, opts)
  end
  local chat = T.open_chat()

  T.send(chat, "Rework the top and line 9")
  local left = wait_review()
  T.eq(vim.api.nvim_win_get_cursor(left)[1], 2, "the cursor starts on the first hunk")
  T.feed("gh")
  T.eq(lines_of(left, 2, 6), { "two", "three", "four", "four and a half", "line 5" }, "gh took the three changed lines and the added one")
  T.eq(vim.api.nvim_win_get_cursor(left)[1], 10, "the cursor moved to the next hunk not taken")
  T.eq(lines_of(left, 10, 10), { "line 9" }, "that hunk is not taken")
  T.feed("<CR>")
  T.wait("the review to close", function()
    return review_wins() == nil
  end)
  local said
  for _, n in ipairs(notes) do
    if n.msg:find("not taken", 1, true) then
      said = n
    end
  end
  T.truthy(said, "finishing with a hunk left says so")
  T.contains(said.msg, "app.txt: finished with 1 hunk of the proposal not taken", "the message")
  T.eq(said.file, original, "it was said before the result was written")
  T.wait("the taken hunk in the buffer", function()
    return vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1] == "four and a half"
  end)
  T.eq(vim.api.nvim_buf_get_lines(buf, 9, 10, false)[1], "line 9", "the hunk not taken is not applied")
  T.wait_idle(chat)

  -- From the proposal's window: gh on the last hunk takes it, the cursor wraps to the first one.
  notes = {}
  T.send(chat, "Now the first and last lines")
  local left2, right2 = wait_review()
  vim.api.nvim_set_current_win(right2)
  local last = vim.api.nvim_buf_line_count(vim.api.nvim_win_get_buf(right2))
  vim.api.nvim_win_set_cursor(right2, { last, 0 })
  T.feed("gh")
  T.eq(lines_of(left2, last, last), { "line twelve" }, "gh in the proposal's window took its hunk")
  T.eq(vim.api.nvim_win_get_cursor(right2)[1], 1, "the cursor wrapped to the first hunk not taken")
  T.feed("gh")
  T.eq(lines_of(left2, 1, 1), { "line one" }, "the first hunk taken")
  T.contains(notes[#notes].msg, "every hunk taken", "nothing is left to take")
  T.feed("<CR>")
  T.wait_idle(chat)
  for _, n in ipairs(notes) do
    T.truthy(not n.msg:find("not taken", 1, true), "a file finished whole says nothing of untaken hunks: " .. n.msg)
  end
  T.eq(vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1], "line one", "the first line changed")
  T.eq(vim.api.nvim_buf_get_lines(buf, last - 1, last, false)[1], "line twelve", "the last line changed")
end)
