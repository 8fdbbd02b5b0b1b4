-- :AgentModel completes the models of the providers the server can call (agent/listModels) and
-- switches the chat's session to one (agent/setModel); a bad name is an error, the model stays.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.open("notes.txt")
  local chat = T.open_chat()
  local before = chat.model
  T.eq(before, "anthropic/claude-sonnet-4-6", "the session's model")
  local completed = vim.fn.getcompletion("AgentModel anthropic/claude-opus-4-1", "cmdline")
  T.truthy(vim.tbl_contains(completed, "anthropic/claude-opus-4-1"), "completes the provider's models: " .. vim.inspect(completed))
  for _, m in ipairs(vim.fn.getcompletion("AgentModel anthropic/", "cmdline")) do
    T.truthy(vim.startswith(m, "anthropic/claude"), "only the provider's models: " .. m)
  end

  local errors = T.record_errors(true)
  vim.cmd("AgentModel nosuch/model")
  T.wait("the refusal", function()
    return errors[1] ~= nil
  end, 10000)
  T.contains(errors[1], '"nosuch/model"', "the error names the model")
  T.eq(chat.model, before, "a refused model leaves the session's")

  vim.cmd("AgentModel anthropic/claude-opus-4-1")
  T.wait("the switch", function()
    return chat.model == "anthropic/claude-opus-4-1"
  end, 10000)
  T.send(chat, "hello")
  T.wait("the answer", function()
    return T.text(chat.buf):find("On opus.", 1, true) ~= nil and not chat.busy
  end, 30000)
end)
