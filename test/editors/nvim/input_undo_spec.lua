-- Undo in the prompt area takes back only what you typed: text typed while an answer streams in
-- is undone and redone step by step (one step per insert), the streamed transcript is never
-- touched, and the retry key still retries outside the input.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "Stream something")
  T.wait_text(chat, "Streamed")
  T.truthy(chat.busy, "the answer is still streaming")
  T.feed("Gifirst words<Esc>")
  vim.wait(300) -- more of the answer streams in between the two inserts
  T.feed("GA and more<Esc>")
  T.wait_idle(chat)
  local answer = T.data.answer
  T.wait_text(chat, answer)
  T.eq(T.input(chat), "first words and more", "both inserts are in the input")
  local transcript = T.text(chat.buf):gsub("\n[^\n]*$", "")

  T.feed("Gu")
  T.eq(T.input(chat), "first words", "u takes back the last insert")
  T.contains(T.text(chat.buf), answer, "and leaves the streamed answer alone")
  T.feed("u")
  T.eq(T.input(chat), "", "u again: the first insert")
  T.eq(T.text(chat.buf):gsub("\n[^\n]*$", ""), transcript, "the transcript is exactly as it was")
  T.feed("u")
  T.eq(T.input(chat), "", "nothing older than the sent prompt's clearing stays typed")
  T.feed("<C-r>")
  T.truthy(T.input(chat) ~= "first words and more", "<C-r> redoes one step at a time")
  T.feed("<C-r>")
  T.feed("<C-r>")
  T.eq(T.input(chat), "first words and more", "<C-r> redoes up to the newest")

  T.feed("u")
  T.feed("A again<Esc>")
  T.eq(T.input(chat), "first words again", "typing after an undo")
  T.feed("<C-r>")
  T.eq(T.input(chat), "first words again", "drops what could have been redone, as in Vim")

  -- Outside the input, the keys keep their chat meaning: <C-r> sends the last prompt again.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  T.feed("u")
  T.eq(T.input(chat), "first words again", "u in the transcript leaves the input alone")
  T.feed("<C-r>")
  T.wait_idle(chat)
  local _, sent = T.text(chat.buf):gsub("## You\nStream something", "")
  T.eq(sent, 2, "<C-r> in the transcript retries")
end)
