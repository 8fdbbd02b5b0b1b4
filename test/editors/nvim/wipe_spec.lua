-- Wiping the chat buffer while its turn streams reports no error; the rest of the answer goes
-- to a new chat of the same session, which :AgentChat then shows.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local errors = T.record_errors(false)
  local buf = T.open("notes.txt")
  local chat = T.open_chat()
  local session = chat.session_id
  T.send(chat, "A slow answer")
  T.wait("the first words", function()
    return T.text(chat.buf):find("word", 1, true) ~= nil
  end)
  vim.cmd("bwipeout! " .. chat.buf)
  local chats = require("agent_lsp.chat")
  local again
  T.wait("the end of the answer in a new chat of the session", function()
    again = chats.get(T.client_id(buf), session)
    return again ~= nil and T.text(again.buf):find("the end.", 1, true) ~= nil
  end)
  vim.wait(200)
  T.eq(errors, {}, "no error was reported")
  T.eq(vim.v.errmsg, "", "no error message")
  vim.cmd("AgentChat")
  T.eq(vim.api.nvim_get_current_buf(), again.buf, ":AgentChat shows the session's chat")
end)
