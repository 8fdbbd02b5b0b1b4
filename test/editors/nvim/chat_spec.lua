-- :AgentChat streams an answer into the chat buffer, shows usage, and folds a tool call into
-- one line with its status that opens to its input and output.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local answer = T.data.answer
  T.open("notes.txt")
  local chat = T.open_chat()
  T.eq(vim.bo[chat.buf].filetype, "markdown", "the chat's filetype")
  T.eq(vim.api.nvim_get_current_buf(), chat.buf, ":AgentChat focuses the chat")
  T.truthy(#vim.api.nvim_tabpage_list_wins(0) == 2, "the chat opens in a split")

  T.send(chat, "Say hello")
  T.truthy(chat.busy, "the chat is busy while the turn runs")
  local partial = false
  T.wait("the whole answer", function()
    local text = T.text(chat.buf)
    if not text:find(answer, 1, true) and text:find(answer:sub(1, 10), 1, true) then
      partial = true
    end
    return text:find(answer, 1, true) ~= nil and not chat.busy
  end)
  T.truthy(partial, "the answer was shown in pieces while it streamed")
  local text = T.text(chat.buf)
  T.contains(text, "## You\nSay hello", "the prompt in the transcript")
  T.contains(text, "## Agent\n" .. answer, "the answer under its heading")
  T.contains(text, "_Usage: 12 in · 5 out · 0 cached", "the usage line")
  -- The prompt line is still there, with an empty input under it.
  local row = require("agent_lsp.render").prompt_row(chat)
  T.eq(vim.api.nvim_buf_get_lines(chat.buf, row + 1, -1, false), { "" }, "the input is cleared after sending")

  T.send(chat, "Use a tool")
  T.wait_idle(chat)
  T.wait("the final answer", function()
    return T.text(chat.buf):find("Done with tools.", 1, true) ~= nil
  end)
  local lines = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false)
  local lnum
  for i, l in ipairs(lines) do
    if l:find("^▸ %[failed%] no_such_tool") then
      lnum = i
    end
  end
  T.truthy(lnum, "a tool call header with its status:\n" .. table.concat(lines, "\n"))
  T.contains(lines[lnum + 1], "  │ path: missing.txt", "the tool input under the header")
  T.contains(table.concat(lines, "\n"), "  │ output: There is no tool \"no_such_tool\"", "the tool output")
  -- Every update went above the prompt line: under it is only the (empty) input.
  local prompt = require("agent_lsp.render").prompt_row(chat)
  T.eq(vim.api.nvim_buf_get_lines(chat.buf, prompt + 1, -1, false), { "" }, "nothing rendered under the prompt line")
  T.eq({ lines[lnum + 3], lines[lnum + 4] }, { "", "Done with tools." }, "the answer after the tool call")
  local win = vim.fn.bufwinid(chat.buf)
  vim.api.nvim_win_call(win, function()
    T.eq(vim.fn.foldclosed(lnum), lnum, "the tool call is folded to its header")
    T.eq(vim.fn.foldclosedend(lnum), lnum + 2, "the fold holds the input and output")
    vim.cmd(lnum .. "foldopen")
    T.eq(vim.fn.foldclosed(lnum), -1, "the fold opens")
  end)
end)
