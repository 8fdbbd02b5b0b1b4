-- <C-c> in the chat cancels the running turn; the chat is usable again right after.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "A long task")
  T.wait("the first part of the answer", function()
    return T.text(chat.buf):find("partial", 1, true) ~= nil
  end)
  T.truthy(chat.busy, "the turn is still running")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))
  T.feed("<C-c>")
  T.wait_idle(chat, 5000)
  T.contains(T.text(chat.buf), "_(cancelled)_", "the chat says the turn was cancelled")
  T.send(chat, "Again")
  T.wait_idle(chat)
  T.wait("the next answer", function()
    return T.text(chat.buf):find("next answer", 1, true) ~= nil
  end)

  -- :AgentCancel from the file's window cancels the chat's turn too.
  T.send(chat, "Another long task")
  T.wait("the second partial answer", function()
    local _, n = T.text(chat.buf):gsub("partial", "")
    return n >= 2
  end)
  vim.cmd("wincmd p")
  T.truthy(require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf()) == nil, "in the file's window")
  vim.cmd("AgentCancel")
  T.wait_idle(chat, 5000)
  local _, cancelled = T.text(chat.buf):gsub("_%(cancelled%)_", "")
  T.eq(cancelled, 2, "both turns say they were cancelled")
end)
