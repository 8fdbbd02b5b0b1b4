-- agent-lsp user commands. Nothing is loaded until a command runs: each requires the plugin
-- on use, and the server starts only from setup() (or the first command).
if vim.g.loaded_agent_lsp then
  return
end
vim.g.loaded_agent_lsp = true

local function agent()
  return require("agent_lsp")
end

--- Defines a command whose failure is reported, not raised as a Lua traceback.
local function command(name, fn, opts)
  vim.api.nvim_create_user_command(name, function(args)
    local ok, err = pcall(fn, args)
    if not ok then
      vim.notify(string.format(":%s failed: %s", name, tostring(err)), vim.log.levels.ERROR, { title = "agent-lsp" })
    end
  end, opts)
end

command("AgentChat", function()
  agent().chat({ focus = true, toggle = true })
end, { desc = "agent-lsp: show or hide the chat of this project" })

command("AgentNew", function()
  agent().new_session({})
end, { desc = "agent-lsp: start a new session" })

command("AgentRetry", function()
  agent().retry({})
end, { desc = "agent-lsp: send the last prompt again" })

command("AgentEdit", function()
  agent().edit({})
end, { desc = "agent-lsp: edit the last prompt; sending it replaces the last exchange" })

command("AgentDoctor", function(args)
  agent().doctor({ live = args.args == "live" })
end, {
  nargs = "?",
  complete = function()
    return { "live" }
  end,
  desc = "agent-lsp: the server's doctor report (live: call the model, check local servers)",
})

command("AgentContext", function()
  agent().context({})
end, { desc = "agent-lsp: what fills the session's context window (/context)" })

command("AgentCancel", function()
  agent().cancel({})
end, { desc = "agent-lsp: cancel the running turn" })

command("AgentRestart", function()
  agent().restart({})
end, { desc = "agent-lsp: restart the project's server, keeping the chat (its session is loaded again)" })

command("AgentSessions", function()
  agent().sessions({})
end, { desc = "agent-lsp: load a saved session" })

command("AgentMode", function(args)
  agent().set_mode({ mode = args.args })
end, {
  nargs = "?",
  complete = function()
    return { "read_only", "plan", "ask", "auto", "full_access" }
  end,
  desc = "agent-lsp: set the safety mode",
})

command("AgentModel", function(args)
  agent().set_model({ model = args.args })
end, {
  nargs = "?",
  complete = function(arglead)
    return require("agent_lsp.model").complete(arglead)
  end,
  desc = "agent-lsp: switch the session's model (completes the models of the configured providers)",
})

command("AgentAsk", function(args)
  agent().ask({ text = args.args, range = args.range > 0, line1 = args.line1, line2 = args.line2 })
end, { nargs = "+", range = true, desc = "agent-lsp: ask, with the buffer (or selection) as context" })

command("AgentActions", function(args)
  agent().actions({ range = args.range > 0, line1 = args.line1, line2 = args.line2 })
end, { range = true, desc = "agent-lsp: the agent's code actions" })
