-- Edit the last prompt and send it again: :AgentEdit (and <C-e>) put it into the input, sending
-- replaces the last exchange (the transcript drops it, the server drops it from the model's
-- history); a slash command in between is not the exchange replaced. :AgentEdit twice stops.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "first prompt")
  T.wait_text(chat, "Answer one.")
  T.wait_idle(chat)
  T.send(chat, "second prompt, badly put")
  T.wait_text(chat, "Answer two.")
  T.wait_idle(chat)
  T.send(chat, "/usage")
  T.wait_idle(chat)

  vim.cmd("AgentEdit")
  T.eq(T.input(chat), "second prompt, badly put", ":AgentEdit puts the last prompt (not the command) into the input")
  local hints = vim.api.nvim_buf_get_extmarks(chat.buf, require("agent_lsp.prompt_edit").ns, 0, -1, { details = true })
  T.eq(#hints, 1, "the prompt line says an edit is pending")
  vim.cmd("AgentEdit")
  T.eq(chat.editing, nil, ":AgentEdit again stops editing")

  T.feed("<C-e>")
  T.truthy(chat.editing, "<C-e> edits too")
  T.send(chat, "second prompt, well put")
  T.wait_text(chat, "Answer three.")
  T.wait_idle(chat)
  local text = T.text(chat.buf)
  T.contains(text, "## You\nfirst prompt", "the first exchange stays")
  T.contains(text, "Answer one.", "with its answer")
  T.not_contains(text, "badly put", "the edited prompt is gone from the transcript")
  T.not_contains(text, "Answer two.", "and its answer")
  T.contains(text, "## You\nsecond prompt, well put", "the edit is the last prompt")
  T.eq(#vim.api.nvim_buf_get_extmarks(chat.buf, require("agent_lsp.prompt_edit").ns, 0, -1, {}), 0, "the hint is gone")

  -- Sent without an edit pending, a prompt is an ordinary one.
  T.send(chat, "third prompt")
  T.wait_text(chat, "Answer four.")
  T.contains(T.text(chat.buf), "second prompt, well put", "an ordinary prompt keeps the exchange before")
end)
