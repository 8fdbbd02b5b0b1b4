-- Errors that help. T.data.phase:
--   auth     the provider refuses the key: the chat and a notification name where the key came
--            from and point to :checkhealth agent_lsp;
--   refused  nothing listens at the base URL: the error names it;
--   missing  the server program is not installed: said once (not per opened file) with the
--            install command; :AgentChat, asked for, says it again;
--   unbuilt  node is given a bundle never built: the fix is the build command of the checkout.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local errors = T.record_errors(true)

local function chat_error(chat)
  T.wait_idle(chat)
  T.wait("the error in the chat", function()
    return T.text(chat.buf):find("**Error:**", 1, true) ~= nil
  end)
  return T.text(chat.buf)
end

T.run(function()
  local agent = require("agent_lsp")
  local base = vim.deepcopy(require("agent_lsp.config").options)
  local phase = T.data.phase
  if phase == "auth" then
    T.open("notes.txt")
    local chat = T.open_chat()
    T.send(chat, "Hello")
    local text = chat_error(chat)
    T.contains(text, "the key came from", "the chat names where the key came from")
    T.contains(text, ":checkhealth agent_lsp", "and what to run")
    T.contains(table.concat(errors, "\n"), "the key came from", "a notification says it too")
  elseif phase == "refused" then
    local init = vim.deepcopy(base.init_options)
    init.providers.anthropic.base_url = "http://127.0.0.1:" .. T.data.port
    agent.setup({ cmd = base.cmd, init_options = init })
    T.open("notes.txt")
    local chat = T.open_chat()
    T.send(chat, "Hello")
    local text = chat_error(chat)
    T.contains(text, "http://127.0.0.1:" .. T.data.port, "the error names the base URL")
    T.contains(text, "is the server running at that base URL?", "and what to check")
  elseif phase == "missing" or phase == "unbuilt" then
    local cmd = phase == "missing" and { "/nonexistent/agent-lsp", "--stdio" } or { "node", vim.fn.getcwd() .. "/co/server/dist/agent-lsp.js", "--stdio" }
    agent.setup({ cmd = cmd })
    for i = #errors, 1, -1 do
      errors[i] = nil
    end
    for _, name in ipairs({ "a.txt", "b.txt", "c.txt" }) do
      vim.cmd("edit " .. name)
    end
    T.eq(#errors, 1, "reported once, not per file:\n" .. table.concat(errors, "\n"))
    if phase == "missing" then
      T.contains(errors[1], "npm install && npm install -g .", "the install command, from the clone")
    else
      T.contains(errors[1], "npm ci && npm run build", "the build command")
      T.contains(errors[1], vim.fn.getcwd() .. "/co", "in the checkout")
    end
    T.contains(errors[1], ":checkhealth agent_lsp", "and where to look")
    vim.cmd("AgentChat")
    T.eq(#errors, 2, ":AgentChat, asked for, says it again")
  end
end)
