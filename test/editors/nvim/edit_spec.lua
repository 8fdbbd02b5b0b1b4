-- A tool call that edits an open, unsaved buffer lands in the buffer (one undo step takes it
-- back) and not on disk.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local buf = T.open("notes.txt")
  -- The user's own unsaved change, typed as a normal-mode command (its own undo step).
  T.feed("ggcwALPHA<Esc>")
  T.eq(vim.bo[buf].modified, true, "the buffer has unsaved changes")
  local before = T.text(buf)
  local chat = T.open_chat()
  T.send(chat, "Change beta")
  T.wait_idle(chat)
  T.wait("the edit in the buffer", function()
    return T.text(buf) == "ALPHA\nBETA from the agent\ngamma"
  end)
  T.eq(T.read_file("notes.txt"), "alpha\nbeta\ngamma\n", "the disk is untouched")
  T.contains(T.text(chat.buf), "▸ [done] Edit notes.txt", "the tool call is done in the chat")
  -- One undo in the file's window takes back the agent's edit, and only it.
  vim.api.nvim_set_current_win(vim.fn.bufwinid(buf))
  vim.cmd("undo")
  T.eq(T.text(buf), before, "undo restores the text before the agent's edit")
  vim.cmd("redo")
  T.eq(T.text(buf), "ALPHA\nBETA from the agent\ngamma", "redo brings it back")
end)
