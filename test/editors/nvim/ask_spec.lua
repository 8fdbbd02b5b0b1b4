-- :'<,'>AgentAsk sends the question with the file and the visual selection as context, and
-- :AgentMode switches the chat session's mode; without an argument it offers the modes.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local buf = T.open("code.lua")
  -- Select from "b" on line 2 to the end of line 3, charwise.
  T.feed("2G0fbvj$<Esc>")
  vim.cmd("'<,'>AgentAsk What does this do?")
  local chat
  T.wait("the chat of the question", function()
    chat = require("agent_lsp.chat").current(T.client_id(buf))
    return chat ~= nil and not chat.busy and T.text(chat.buf):find("It returns b.", 1, true) ~= nil
  end)
  T.eq(vim.api.nvim_get_current_buf(), buf, "the cursor stays in the file")
  T.contains(T.text(chat.buf), "## You\nWhat does this do?", "the question in the transcript")
  vim.cmd("AgentMode read_only")
  T.wait("the mode switch", function()
    return chat.mode == "read_only"
  end)
  T.contains(T.text(chat.buf), "_mode: read_only_", "the chat notes the mode")

  -- Without an argument :AgentMode shows the current mode and offers the others.
  local seen = T.stub_select("^plan$")
  vim.cmd("AgentMode")
  T.wait("the mode picked", function()
    return chat.mode == "plan"
  end)
  T.contains(seen[1].prompt, "now: read_only", "the prompt names the current mode")
  T.truthy(vim.tbl_contains(seen[1].items, "read_only  (current)"), "the current mode marked: " .. table.concat(seen[1].items, ", "))
end)
