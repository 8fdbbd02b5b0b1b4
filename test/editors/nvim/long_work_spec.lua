-- Long work in the chat: the checklist at the top of the chat, replaced as it changes; a
-- subagent's steps nested (and folded) under the call that started it; a phase report; the
-- result set apart with its command.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

--- The 1-based line numbers of the lines matching `pattern`.
local function find(lines, pattern)
  local found = {}
  for i, l in ipairs(lines) do
    if l:find(pattern) then
      table.insert(found, i)
    end
  end
  return found
end

T.run(function()
  local chat = T.open_chat()
  T.send(chat, "Do the long task")
  T.wait_idle(chat, 30000)
  T.wait("the result", function()
    return T.text(chat.buf):find("### Result", 1, true) ~= nil
  end)
  local lines = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false)
  local all = table.concat(lines, "\n")

  -- One checklist, at the top, as it stands last.
  T.eq(find(lines, "^%*%*Checklist%*%*"), { 3 }, "one checklist block, right under the title:\n" .. all)
  T.eq({ lines[3], lines[4], lines[5] }, { "**Checklist** (1 of 2 done)", "- [x] Read the parser", "- [ ] Fix the bug" }, "the checklist's latest state")
  T.eq(find(lines, "^## You")[1], 7, "the checklist comes before the conversation, a blank line between")

  -- The subagent's step is a detail line of the parent's call.
  local parent = find(lines, "^▸ %[done%] Subagent: find the parser")[1]
  T.truthy(parent, "the parent call's header:\n" .. all)
  local step = find(lines, "^  │ ↳ #1 %[done%] ")[1]
  T.truthy(step and step > parent, "the subagent's step under it:\n" .. all)
  T.eq(find(lines, "^The parser is in src/parse%.ts%.$"), {}, "the subagent's text is not the agent's answer")
  T.contains(all, "  │ output: The parser is in src/parse.ts.", "its answer is the call's output")
  local win = vim.fn.bufwinid(chat.buf)
  vim.api.nvim_win_call(win, function()
    T.eq(vim.fn.foldclosed(step), parent, "the step folds with its parent call")
  end)

  T.contains(all, "» Now fixing the bug.", "the message sent while working")
  T.contains(all, "**Phase done:** Parser read\n_Verified:_ found the off-by-one\n_Next:_ Fix it", "the phase report")
  T.contains(all, "### Result\nFixed the off-by-one.\nRun: `npm test`", "the result with its command")
end)
