-- Recovery without restarting Neovim. The provider's key is missing when the server starts (its
-- api_key_env names a variable that is not set): the prompt fails, and :checkhealth says what the
-- running server will use. Setting the variable in Neovim and :AgentRetry works (the plugin hands
-- it to the running server), and :checkhealth agrees. :AgentRestart then restarts the server and
-- keeps the chat: the same window, the session loaded again with its history, usable at once.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function health()
  vim.cmd("checkhealth agent_lsp")
  local text = T.text(0)
  vim.cmd("bwipeout")
  return text
end

local function chat_windows()
  local out = {}
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if require("agent_lsp.chat").by_buffer(vim.api.nvim_win_get_buf(win)) then
      table.insert(out, win)
    end
  end
  return out
end

T.run(function()
  T.forbid_blocking_prompts()
  local base = vim.deepcopy(require("agent_lsp.config").options)
  local init = vim.deepcopy(base.init_options)
  init.providers.anthropic.api_key = nil
  init.providers.anthropic.api_key_env = "AGENT_LSP_SPEC_KEY"
  require("agent_lsp").setup({ cmd = base.cmd, init_options = init })
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "Hello")
  T.wait_idle(chat)
  T.wait_text(chat, "AGENT_LSP_SPEC_KEY")
  T.contains(health(), "will call anthropic: No API key for anthropic: AGENT_LSP_SPEC_KEY", "checkhealth says what the running server lacks")

  vim.env.AGENT_LSP_SPEC_KEY = "sk-ant-set-in-neovim-0000"
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))
  vim.cmd("AgentRetry")
  T.wait_idle(chat)
  T.wait_text(chat, "Keyed now.")
  T.contains(health(), "will call anthropic: key set (the environment variable AGENT_LSP_SPEC_KEY)", "checkhealth agrees with the running server")

  -- :AgentRestart keeps the chat: one chat window, the same one, the session loaded again.
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))
  local win = vim.api.nvim_get_current_win()
  local old_client, session = chat.client_id, chat.session_id
  vim.cmd("AgentRestart")
  local fresh
  T.wait("the chat on the new server", function()
    fresh = require("agent_lsp.chat").by_buffer(vim.api.nvim_win_get_buf(win))
    return fresh and fresh.client_id ~= old_client and not fresh.detached and T.text(fresh.buf):find("Keyed now.", 1, true) ~= nil
  end, 30000)
  T.eq(fresh.session_id, session, "the same session")
  T.eq(#chat_windows(), 1, "one chat window")
  T.eq(vim.lsp.get_client_by_id(fresh.client_id).config.root_dir, vim.fn.getcwd(), "the new server serves the project")
  T.send(fresh, "Still there?")
  T.wait_idle(fresh)
  T.wait_text(fresh, "After the restart.")
end)
