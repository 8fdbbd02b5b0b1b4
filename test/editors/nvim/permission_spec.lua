-- A permission request without file changes is a vim.ui.select of the server's options:
-- "Yes, don't ask again" runs the command and the same command is not asked about again;
-- "No, and tell the agent…" refuses it with a line of text that reaches the model; a prompt
-- dismissed without a choice answers nothing (null), so the model is not told it was declined. Every answer
-- names the request it answers (its random requestId), so the server can refuse a stray one.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

--- Records each agent/requestPermission and the answer the plugin sends to it.
local function record_answers()
  local permission, reply = require("agent_lsp.permission"), require("agent_lsp.reply")
  local log = { params = {}, answers = {} }
  local handle, async = permission.request_permission, reply.async
  permission.request_permission = function(params, ctx)
    table.insert(log.params, params)
    return handle(params, ctx)
  end
  reply.async = function(start)
    return async(function(done)
      start(function(result)
        table.insert(log.answers, result)
        done(result)
      end)
    end)
  end
  return log
end

T.run(function()
  T.forbid_blocking_prompts()
  local answers = record_answers()
  T.open("notes.txt")
  local chat = T.open_chat()
  local seen = T.stub_select("^Yes, don't ask again$")
  T.send(chat, "Run echo twice")
  T.wait_idle(chat)
  T.wait("the answer", function()
    return T.text(chat.buf):find("Ran it twice.", 1, true) ~= nil
  end)
  T.eq(#seen, 1, "asked once: the second run was allowed by the answer")
  T.eq(seen[1].items, { "Yes", "Yes, don't ask again", "No", "No, and tell the agent…" }, "the server's options, in order, and a refusal with a reason")
  T.contains(seen[1].prompt, "agent-lsp wants to:", "the prompt says what is asked")
  T.contains(seen[1].prompt, "echo from-the-agent", "and names the command")
  local text = T.text(chat.buf)
  local _, done = text:gsub("▸ %[done%] Run echo from%-the%-agent", "")
  T.eq(done, 2, "both runs done:\n" .. text)
  T.eq(#answers.answers, 1, "one answer sent")
  T.truthy(tostring(answers.params[1].requestId):match("^%x+%-%x+%-%x+%-%x+%-%x+$"), "the request carries a random id: " .. tostring(answers.params[1].requestId))
  T.eq(answers.answers[1].requestId, answers.params[1].requestId, "the answer names the request it answers")

  seen = T.stub_select("^No, and tell the agent")
  local asked
  vim.ui.input = function(opts, on_confirm)
    asked = opts.prompt
    vim.schedule(function()
      on_confirm("use echo instead")
    end)
  end
  T.send(chat, "Run something else")
  T.wait_idle(chat)
  T.wait("the refusal answer", function()
    return T.text(chat.buf):find("Not run.", 1, true) ~= nil
  end)
  T.eq(#seen, 1, "the other command is asked about")
  T.eq(seen[1].items, { "Yes", "Yes, don't ask again", "No", "No, and tell the agent…" }, "a refusal with a reason is offered")
  T.contains(asked or "", "Tell the agent why", "the reason is asked for")
  T.contains(T.text(chat.buf), "▸ [declined] Run printf other", "a refused command shows as declined")

  -- Dismissed without a choice (<Esc>, a stray key as it opened): no answer, not a refusal.
  seen = T.stub_select("^no item is this$")
  local sent = #answers.answers
  T.send(chat, "Run a third")
  T.wait_idle(chat)
  T.wait("the answer after the dismissal", function()
    return T.text(chat.buf):find("Dismissed.", 1, true) ~= nil
  end)
  T.eq(#seen, 1, "the third command is asked about")
  T.eq(answers.answers[sent + 1], vim.NIL, "a dismissed prompt answers null")
  T.eq(T.text(chat.buf):find("[declined] Run printf third", 1, true), nil, "a dismissal is not shown as declined")
end)
