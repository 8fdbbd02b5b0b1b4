-- "Ask agent to fix" on a linter's diagnostic (from :AgentActions) runs in the chat's session
-- and its edit lands in the buffer; Neovim's own code-action menu runs the plugin's handler too.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function range_code_action(first, last)
  -- 0.7 has range_code_action; 0.8 replaced it with code_action({range = ...}).
  if vim.fn.has("nvim-0.8") == 1 then
    vim.lsp.buf.code_action({ range = { start = { first, 0 }, ["end"] = { last, 0 } } })
  else
    vim.lsp.buf.range_code_action(nil, { first, 0 }, { last, 0 })
  end
end

T.run(function()
  local buf = T.open("math.js")
  local lint = vim.api.nvim_create_namespace("test_linter")
  vim.diagnostic.set(lint, buf, {
    { lnum = 1, col = 2, end_lnum = 1, end_col = 15, message = "add() subtracts", severity = vim.diagnostic.severity.ERROR, source = "lint" },
  })
  vim.api.nvim_win_set_cursor(0, { 2, 4 })
  local seen = T.stub_select("^Ask agent to fix")
  vim.cmd("AgentActions")
  T.wait("the fix in the buffer", function()
    return vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1] == "  return a + b;"
  end)
  T.eq(seen[1].items, { "Ask agent to fix: add() subtracts" }, "the menu offers the fix (no selection: nothing else)")
  local chat = require("agent_lsp.chat").current(T.client_id(buf))
  T.truthy(chat, "the fix runs in a chat")
  -- The chat is busy until the turn has ended (the plugin asks the server to answer then), so
  -- the whole answer, streamed slowly, is there the moment it goes idle.
  T.wait_idle(chat)
  local text = T.text(chat.buf)
  T.contains(text, "Fixed the operator.", "the whole answer when the chat is idle")
  T.contains(text, "## You\nAsk agent to fix: add() subtracts", "the action in the transcript")
  T.contains(text, "▸ [done] Edit math.js", "the edit as a tool call")
  T.eq(vim.fn.bufwinid(chat.buf) ~= -1, true, "the chat is shown")

  -- Neovim's own menu lists the server's actions and runs them through the plugin.
  vim.api.nvim_set_current_win(vim.fn.bufwinid(buf))
  seen = T.stub_select("Ask agent: explain")
  range_code_action(1, 3)
  T.wait("the explanation in the chat", function()
    return T.text(chat.buf):find("It adds two numbers.", 1, true) ~= nil
  end)
  T.contains(table.concat(seen[1].items, "\n"), "Ask agent: refactor...", "the built-in menu shows the agent's actions")
  T.wait_idle(chat)
end)
