-- agent/askUser: choices come as a vim.ui.select (with a free-text entry), questions without
-- choices as vim.ui.input; the answers reach the model.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  local seen = T.stub_select("^Blue$")
  local inputs = {}
  vim.ui.input = function(opts, on_confirm)
    table.insert(inputs, opts.prompt)
    vim.schedule(function()
      on_confirm("a free answer")
    end)
  end
  T.send(chat, "Ask me things")
  T.wait_idle(chat)
  T.wait("the final answer", function()
    return T.text(chat.buf):find("Thanks for both answers.", 1, true) ~= nil
  end)
  T.eq(#seen, 1, "one question with choices")
  T.eq(seen[1].items, { "Red", "Blue", "Something else…" }, "the choices and a free-text entry")
  T.contains(seen[1].prompt, "Which colour?", "the question")
  T.eq(#inputs, 1, "one free-text question")
  T.contains(inputs[1], "What is your name?", "the free-text question")
end)
