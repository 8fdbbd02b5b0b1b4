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

  -- A user's screen shows the folds after every update, which is when Neovim works out their
  -- levels (headless, asking for each line's fold does the same): a header rewritten as its
  -- call goes on must leave every call's detail lines inside its fold.
  local render = require("agent_lsp.render")
  local update = render.update
  local function look()
    vim.cmd("redraw")
    vim.api.nvim_win_call(vim.fn.bufwinid(chat.buf), function()
      for lnum = 1, vim.api.nvim_buf_line_count(chat.buf) do
        vim.fn.foldclosed(lnum)
      end
    end)
  end
  render.update = function(c, u)
    update(c, u)
    look()
  end
  T.send(chat, "Use a tool")
  T.wait_idle(chat)
  T.wait("the final answer", function()
    return T.text(chat.buf):find("Done with tools.", 1, true) ~= nil
  end)
  render.update = update
  local lines = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false)
  local headers = {}
  for i, l in ipairs(lines) do
    if l:find("^▸ %[failed%] no_such_tool") then
      table.insert(headers, i)
    end
  end
  T.eq(#headers, 2, "two tool call headers with their status:\n" .. table.concat(lines, "\n"))
  T.contains(lines[headers[1] + 1], "  │ path: missing.txt", "the first call's input under its header")
  T.contains(lines[headers[2] + 1], "  │ path: other.txt", "the second call's input under its header")
  T.contains(lines[headers[1] + 2], "  │ output: There is no tool \"no_such_tool\"", "the tool output")
  -- Every update went above the prompt line: under it is only the (empty) input.
  local prompt = render.prompt_row(chat)
  T.eq(vim.api.nvim_buf_get_lines(chat.buf, prompt + 1, -1, false), { "" }, "nothing rendered under the prompt line")
  local last = headers[2]
  T.eq({ lines[last + 3], lines[last + 4] }, { "", "Done with tools." }, "the answer after the tool calls")
  local win = vim.fn.bufwinid(chat.buf)
  vim.api.nvim_win_call(win, function()
    for _, lnum in ipairs(headers) do
      T.eq(vim.fn.foldclosed(lnum), lnum, "the tool call is folded to its header")
      T.eq(vim.fn.foldclosedend(lnum), lnum + 2, "the fold holds the input and output")
    end
    for i, l in ipairs(lines) do
      if l:find("^  │") then
        T.truthy(vim.fn.foldclosed(i) ~= -1, "no detail line shows loose between the folds: line " .. i .. " " .. l)
      end
    end
    vim.cmd(headers[1] .. "foldopen")
    T.eq(vim.fn.foldclosed(headers[1]), -1, "the fold opens")
    T.eq(vim.fn.foldclosed(headers[2]), headers[2], "the other stays closed")
  end)

  -- A call whose status changes after the next call was announced (it reported progress, then
  -- waits for an approval): its header is rewritten above a closed fold, on the user's screen.
  local redrawn = function(u)
    render.update(chat, u)
    look()
  end
  redrawn({ kind = "tool_call", id = "slow", name = "read_file", title = "Read a.txt", input = { path = "a.txt" }, status = "pending" })
  redrawn({ kind = "tool_call_update", id = "slow", status = "running", output = "reading" })
  redrawn({ kind = "tool_call", id = "next", name = "read_file", title = "Read b.txt", input = { path = "b.txt" }, status = "pending" })
  redrawn({ kind = "tool_call_update", id = "slow", status = "pending" })
  local running = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false)
  vim.api.nvim_win_call(win, function()
    for i, l in ipairs(running) do
      if l:find("^  │") and i > headers[2] then
        T.truthy(vim.fn.foldclosed(i) ~= -1, "no detail line shows loose between the folds: line " .. i .. " " .. l)
      end
    end
  end)
  redrawn({ kind = "tool_call_update", id = "slow", status = "completed", output = "a's text" })
  redrawn({ kind = "tool_call_update", id = "next", status = "completed", output = "b's text" })
  lines = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false)
  vim.api.nvim_win_call(win, function()
    for i, l in ipairs(lines) do
      if l:find("^▸ %[done%] Read") then
        T.eq(vim.fn.foldclosedend(i), i + 2, "the fold of " .. l .. " holds its input and output")
      elseif l:find("^  │") and i > headers[2] then
        T.truthy(vim.fn.foldclosed(i) ~= -1, "no detail line shows loose between the folds: line " .. i .. " " .. l)
      end
    end
  end)
end)
