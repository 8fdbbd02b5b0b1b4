---@mod agent_lsp.server_cmd Whether the server command can run, and the exact fix when not.
---
--- Two ways an install goes wrong: the program is not on PATH (`agent-lsp` never installed),
--- or `node` is given a bundle that was never built (a checkout without `npm run build`).

local config = require("agent_lsp.config")

local M = {}

--- How to install the server: from a clone (agent-lsp is not published on npm yet).
M.INSTALL = "in your clone of agent-lsp: npm install && npm install -g ."

--- What is wrong with the server command, and how to fix it; nil when it looks runnable.
---@return {problem: string, fix: string[]}|nil
function M.check()
  local cmd = config.options.cmd
  if vim.fn.executable(cmd[1]) ~= 1 then
    return {
      problem = string.format("%q is not executable", cmd[1]),
      fix = {
        "install the server: " .. M.INSTALL,
        "or, from a checkout of agent-lsp: setup({ cmd = { \"node\", \"/path/to/agent-lsp/server/dist/agent-lsp.js\", \"--stdio\" } })",
      },
    }
  end
  local script = cmd[2]
  if vim.fn.fnamemodify(cmd[1], ":t"):match("^node") and type(script) == "string" and script:match("%.js$") and vim.fn.filereadable(script) ~= 1 then
    local checkout = script:match("^(.*)/server/dist/[^/]+%.js$")
    return {
      problem = string.format("%s does not exist", script),
      fix = { checkout and string.format("build it: cd %s && npm ci && npm run build", vim.fn.shellescape(checkout)) or ("point cmd at the built agent-lsp.js, or " .. M.INSTALL) },
    }
  end
  return nil
end

--- The problem and its fix in one message.
---@param found {problem: string, fix: string[]}
---@return string
function M.message(found)
  return string.format("cannot start the server: %s. Fix: %s (see :checkhealth agent_lsp)", found.problem, table.concat(found.fix, "; "))
end

return M
