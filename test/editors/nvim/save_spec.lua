-- Before a command runs, the server asks the plugin (agent/saveDocuments) to write the buffer
-- the agent changed: it is written, and only it; another buffer's unsaved change stays unsaved.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local other = T.open("other.txt")
  T.feed("ggcwMINE<Esc>")
  T.eq(vim.bo[other].modified, true, "the user's own change in other.txt is unsaved")
  local buf = T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "Change beta and show the file")
  T.wait_idle(chat)
  T.eq(T.text(buf), "alpha\nBETA from the agent\ngamma", "the edit is in the buffer")
  T.eq(T.read_file("notes.txt"), "alpha\nBETA from the agent\ngamma\n", "the buffer was written before the command")
  T.eq(vim.bo[buf].modified, false, "the buffer is no longer modified")
  T.eq(vim.bo[other].modified, true, "the other buffer was not written")
  T.eq(T.read_file("other.txt"), "one\ntwo\n", "the other file on disk is untouched")
  T.contains(T.text(chat.buf), "Saved notes.txt before running the command.", "the chat says what was saved")
end)
