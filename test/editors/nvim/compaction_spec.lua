-- A compaction shows as a marker line in the chat, and :AgentContext shows /context there.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "First task")
  T.wait_idle(chat)
  T.send(chat, "Second task")
  T.wait_idle(chat)
  T.wait("the answer after the compaction", function()
    return T.text(chat.buf):find("Second answer.", 1, true) ~= nil
  end)
  local text = T.text(chat.buf)
  T.contains(text, "_── context compacted (checkpoint 1, auto): about ", "the compaction marker")
  T.contains(text, "messages 1-2 archived ──_", "what it archived")
  T.truthy(not text:find("SUMMARY", 1, true), "the summary itself is not streamed into the chat")

  vim.cmd("AgentContext")
  T.wait("the /context report", function()
    return T.text(chat.buf):find("Last compaction: #1 (auto)", 1, true) ~= nil
  end)
  T.contains(T.text(chat.buf), "Context window of anthropic/claude-sonnet-4-6: 200,000 tokens", "the window")
end)
