-- Phase 1 chats once; phase 2 (a new Neovim) loads that session with :AgentSessions, sees its
-- history replayed in the chat (the file its prompt carried named, as when it was sent), and goes
-- on in it.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.open("notes.txt")
  if T.data.phase == 1 then
    local chat = T.open_chat()
    T.send(chat, "First question @notes.txt")
    T.wait_idle(chat)
    T.wait("the answer", function()
      return T.text(chat.buf):find("Answer one.", 1, true) ~= nil
    end)
    return
  end
  local seen = T.stub_select("First question @notes.txt")
  vim.cmd("AgentSessions")
  local chat
  T.wait("the loaded session's chat", function()
    chat = require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf())
    return chat ~= nil and T.text(chat.buf):find("Answer one.", 1, true) ~= nil
  end)
  T.eq(#seen[1].items, 1, "one saved session listed")
  T.truthy(seen[1].items[1]:match("^  %d%d%d%d%-%d%d%-%d%d %d%d:%d%d  First question @notes%.txt$"), "local time and title: " .. seen[1].items[1])
  -- The time is local: TZ is Asia/Kolkata (UTC+5:30) in this run.
  T.eq(require("agent_lsp.util").local_time("2026-01-15T10:00:00.000Z"), "2026-01-15 15:30", "UTC shown as local time")
  local text = T.text(chat.buf)
  T.contains(text, "## You\nFirst question @notes.txt\n▸ [attached] file notes.txt\n", "the replayed prompt and the file it carried")
  T.contains(text, "## Agent\nAnswer one.", "the replayed answer")
  T.send(chat, "Second question")
  T.wait_idle(chat)
  T.wait("the new answer", function()
    return T.text(chat.buf):find("Answer two.", 1, true) ~= nil
  end)
  seen = T.stub_select("^nothing$")
  vim.cmd("AgentSessions")
  T.wait("the list again", function()
    return #seen == 1
  end)
  T.truthy(seen[1].items[1]:match("^● "), "the current session is marked: " .. seen[1].items[1])
end)
