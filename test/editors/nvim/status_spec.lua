-- The busy state: from send to the first token the chat's prompt line carries a spinner and
-- "waiting for the model"; an approval that waits is shown there and in status(); status()
-- reports mode, model, tokens and whether a turn runs, from a file window too.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function spinner_text(chat)
  local ns = require("agent_lsp.status").ns
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(chat.buf, ns, 0, -1, { details = true })) do
    for _, chunk in ipairs(m[4].virt_text or {}) do
      table.insert(out, chunk[1])
    end
  end
  return table.concat(out, " ")
end

T.run(function()
  T.forbid_blocking_prompts()
  local file = T.open("notes.txt")
  local file_win = vim.api.nvim_get_current_win()
  local agent = require("agent_lsp")
  T.eq(agent.status().running, false, "nothing runs before the first chat")
  local chat = T.open_chat()
  T.send(chat, "Say something slowly")
  T.wait("the spinner before the first token", function()
    return spinner_text(chat):find("waiting for the model", 1, true) ~= nil
  end, 5000)
  vim.api.nvim_set_current_win(file_win)
  T.eq(vim.api.nvim_get_current_buf(), file, "status() asked from the file window")
  T.eq(agent.status().running, true, "status() says a turn runs")
  T.eq(agent.status().activity, "waiting for the model", "and what it waits for")
  T.wait_idle(chat)
  T.eq(spinner_text(chat), "", "no spinner after the turn")
  local s = agent.status()
  T.eq(s.running, false, "the turn ended")
  T.eq(s.mode, "ask", "the session's mode")
  T.truthy(type(s.model) == "string" and s.model ~= "", "the session's model: " .. tostring(s.model))
  T.eq(s.tokens, 17, "the tokens of the turn (12 in, 5 out)")

  -- An approval that waits is shown in the chat and in status() until it is answered.
  local pending
  vim.ui.select = function(items, _, on_choice)
    pending = function()
      on_choice(items[1], 1)
    end
  end
  T.send(chat, "Run echo")
  T.wait("the approval", function()
    return pending ~= nil
  end)
  vim.api.nvim_set_current_win(file_win)
  T.contains(agent.status().pending_approval or "", "echo waiting-for-you", "status() names the pending approval")
  T.contains(spinner_text(chat), "waiting for your approval", "the chat shows it")
  pending()
  T.wait_idle(chat)
  T.eq(agent.status().pending_approval, nil, "answered: nothing pending")
  T.eq(spinner_text(chat), "", "no spinner after the turn")
end)
