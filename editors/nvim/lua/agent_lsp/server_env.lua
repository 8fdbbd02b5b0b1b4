---@mod agent_lsp.server_env Your environment's provider variables, passed to the running server.
---
--- The server reads provider keys and base URLs from its environment, which it got from Neovim
--- when it started and never sees change. A key set later (`:let $ANTHROPIC_API_KEY = ...`,
--- `vim.env.ANTHROPIC_API_KEY = ...`) reaches the running server with `agent/reloadConfig`,
--- sent before a prompt or a new session whenever one of these variables changed since it last
--- went (or since the server started). The server names the variables it reads in its answer;
--- before the first answer, every variable ending in `_API_KEY` or `_BASE_URL` counts.

local config = require("agent_lsp.config")

local M = {}

---@type table<integer, table<string, string|false>> client id -> name -> the value last sent (false: unset)
local sent = {}
---@type table<integer, string[]> client id -> the names the server said it reads
local names = {}

--- The value the server would have for `name`: setup()'s cmd_env first, then Neovim's environment.
local function value_of(name)
  local env = config.options.cmd_env or {}
  local v = env[name]
  if v == nil then
    v = vim.env[name]
  end
  return (v ~= nil and v ~= "") and tostring(v) or false
end

--- The variable names to look at for client `id`.
local function watched(id)
  local out = {}
  for _, n in ipairs(names[id] or {}) do
    out[n] = true
  end
  for n in pairs(sent[id] or {}) do
    out[n] = true
  end
  if not names[id] then
    for n in pairs(vim.fn.environ()) do
      if n:match("_API_KEY$") or n:match("_BASE_URL$") then
        out[n] = true
      end
    end
  end
  return out
end

--- The variables whose value differs from what the server has: name -> value (vim.NIL: unset).
--- A client whose start this module did not see is taken to have what Neovim has now.
---@param id integer
---@return table<string, any>|nil changed nil when nothing changed
function M.changes(id)
  if not sent[id] then
    M.started(id)
    return nil
  end
  local changed, any = {}, false
  for n in pairs(watched(id)) do
    local v, before = value_of(n), sent[id][n]
    if (before == nil and v) or (before ~= nil and v ~= before) then
      changed[n] = v or vim.NIL
      any = true
    end
  end
  return any and changed or nil
end

--- Records the environment the server of client `id` starts with.
---@param id integer
function M.started(id)
  sent[id] = {}
  for n in pairs(watched(id)) do
    sent[id][n] = value_of(n)
  end
end

--- Remembers what an `agent/reloadConfig` answer says the server reads.
local function learn(id, result)
  if type(result) == "table" and type(result.env) == "table" then
    names[id] = result.env
  end
end

--- Sends the variables that changed since the server last got them, before anything that may
--- call a provider. The request goes ahead of the caller's on the same connection, so the
--- server has the values when it handles the next request; no answer is waited for.
---@param id integer
function M.sync(id)
  local changed = M.changes(id)
  if not changed then
    return
  end
  sent[id] = sent[id] or {}
  for n, v in pairs(changed) do
    sent[id][n] = v ~= vim.NIL and v or false
  end
  require("agent_lsp.client").request(id, "agent/reloadConfig", { env = changed }, function(err, result)
    if not err then
      learn(id, result)
    end
  end)
end

--- Sends every watched variable and waits (up to `timeout_ms`) for the server's report of how it
--- will call each provider: `{providers = {{provider, ok, detail}}, env}`; nil and an error text
--- when it cannot be had (for :checkhealth).
---@param id integer
---@param timeout_ms integer
---@return table|nil report
---@return string|nil err
function M.report(id, timeout_ms)
  local env = {}
  for n in pairs(watched(id)) do
    env[n] = value_of(n) or vim.NIL
  end
  local c = require("agent_lsp.client").get(id)
  if not c then
    return nil, "the server is not running"
  end
  local answer, err
  local ok = require("agent_lsp.client").request(id, "agent/reloadConfig", { env = env }, function(e, result)
    answer, err = result, e
  end)
  if not ok then
    return nil, "could not ask the server"
  end
  if not vim.wait(timeout_ms, function()
    return answer ~= nil or err ~= nil
  end, 20) then
    return nil, "no answer within " .. timeout_ms .. " ms"
  end
  if err then
    return nil, require("agent_lsp.util").error_text(err)
  end
  sent[id] = {}
  for n, v in pairs(env) do
    sent[id][n] = v ~= vim.NIL and v or false
  end
  learn(id, answer)
  return answer
end

return M
