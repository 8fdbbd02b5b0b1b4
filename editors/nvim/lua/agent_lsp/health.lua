---@mod agent_lsp.health :checkhealth agent_lsp
---
--- Reports the Neovim version, whether the server binary runs, the server's own `doctor`
--- report (config files, provider credentials, tools) and the providers configured here.

local config = require("agent_lsp.config")

local M = {}

-- 0.9 moved the reporters to vim.health.{start,ok,...}; 0.7/0.8 have require("health").report_*.
local health = vim.health or require("health")
local h = {
  start = health.start or health.report_start,
  ok = health.ok or health.report_ok,
  info = health.info or health.report_info,
  warn = health.warn or health.report_warn,
  error = health.error or health.report_error,
}

local TIMEOUT_MS = 20000

--- Runs a command; returns its exit code (nil when it did not run) and its output lines.
---@param cmd string[]
---@param opts {cwd: string|nil, env: table|nil}
---@return integer|nil code
---@return string[] lines
--- A job's output callback that appends the non-empty lines to `lines`.
local function collector(lines)
  return function(_, data)
    for _, l in ipairs(data or {}) do
      if l ~= "" then
        table.insert(lines, (l:gsub("\r$", "")))
      end
    end
  end
end

local function run(cmd, opts)
  local lines = {}
  local collect = collector(lines)
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    cwd = opts.cwd,
    env = opts.env,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = collect,
    on_stderr = collect,
  })
  if not ok or job <= 0 then
    return nil, { "could not start: " .. table.concat(cmd, " ") .. (ok and "" or (" (" .. tostring(job) .. ")")) }
  end
  local code = vim.fn.jobwait({ job }, TIMEOUT_MS)[1]
  if code == -1 then
    vim.fn.jobstop(job)
    return nil, { "no answer within " .. (TIMEOUT_MS / 1000) .. " s: " .. table.concat(cmd, " ") }
  end
  return code, lines
end

--- The server command without `--stdio`, to run its subcommands.
local function program()
  local out = {}
  for _, part in ipairs(config.options.cmd) do
    if part ~= "--stdio" then
      table.insert(out, part)
    end
  end
  return out
end

--- The command line of `agent-lsp doctor` (with `--live`), for :AgentDoctor.
---@param live boolean
---@return string[]
function M.doctor_cmd(live)
  local cmd = program()
  table.insert(cmd, "doctor")
  if live then
    table.insert(cmd, "--live")
  end
  return cmd
end

--- Runs `agent-lsp doctor` for the current project without blocking, and shows the report in
--- a split when it ends (:AgentDoctor).
---@param opts {live: boolean}
function M.show_doctor(opts)
  local util = require("agent_lsp.util")
  local cmd = M.doctor_cmd(opts.live)
  local ok_root, root = pcall(require("agent_lsp.client").root_for, vim.api.nvim_get_current_buf())
  local lines = {}
  util.notify("running " .. table.concat(cmd, " ") .. " …")
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    cwd = ok_root and root or nil,
    env = config.options.cmd_env,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = collector(lines),
    on_stderr = collector(lines),
    on_exit = function(_, code)
      vim.schedule(function()
        local buf = util.scratch_buffer("agent-lsp://doctor", nil)
        table.insert(lines, 1, string.format("agent-lsp doctor%s: exit %d", opts.live and " --live" or "", code))
        vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
        vim.bo[buf].modifiable = false
        vim.cmd("botright split")
        vim.api.nvim_win_set_buf(0, buf)
      end)
    end,
  })
  if not ok or job <= 0 then
    util.error("could not run " .. table.concat(cmd, " ") .. (ok and "" or (": " .. tostring(job))))
  end
end

local function with(cmd, extra)
  local out = vim.deepcopy(cmd)
  table.insert(out, extra)
  return out
end

local function check_neovim()
  h.start("Neovim")
  local v = vim.version()
  local text = string.format("Neovim %d.%d.%d", v.major, v.minor, v.patch)
  if v.major == 0 and (v.minor < 7 or (v.minor == 7 and v.patch < 2)) then
    h.error(text .. ": agent-lsp needs 0.7.2 or later")
  else
    h.ok(text)
  end
end

---@return boolean runs
local function check_server(cwd)
  h.start("Server")
  local cmd = program()
  local broken = require("agent_lsp.server_cmd").check()
  if broken then
    h.error(broken.problem, broken.fix)
    return false
  end
  local code, lines = run(with(cmd, "--version"), { cwd = cwd, env = config.options.cmd_env })
  if code ~= 0 then
    h.error("the server does not run: " .. table.concat(lines, " / "))
    return false
  end
  h.ok(string.format("%s runs: agent-lsp %s", table.concat(config.options.cmd, " "), lines[1] or "?"))
  return true
end

local function check_doctor(cwd)
  local live = config.options.live
  h.start("agent-lsp doctor" .. (live and " --live" or "") .. " (" .. cwd .. ")")
  local cmd = with(program(), "doctor")
  if live then
    table.insert(cmd, "--live")
  else
    h.info("live checks (a model call, local servers listening) are off: setup({ live = true }) or :AgentDoctor live")
  end
  local code, lines = run(cmd, { cwd = cwd, env = config.options.cmd_env })
  if code == nil then
    h.error(table.concat(lines, "\n"))
    return
  end
  local report = {}
  for _, line in ipairs(lines) do
    local body = vim.trim(line)
    if body:match("^ERROR") then
      h.error("doctor: " .. body:gsub("^ERROR%s*", ""))
    elseif body:match("^WARNING") then
      h.warn("doctor: " .. body:gsub("^WARNING%s*", ""))
    else
      table.insert(report, line)
    end
  end
  h.info(table.concat(report, "\n"))
  if code == 0 then
    h.ok("doctor found nothing wrong")
  end
end

local function describe_provider(name, p)
  local parts = {}
  if type(p.type) == "string" then
    table.insert(parts, "type " .. p.type)
  end
  if type(p.base_url) == "string" then
    table.insert(parts, p.base_url)
  end
  if type(p.api_key) == "string" and p.api_key ~= "" then
    table.insert(parts, "key set in setup()")
  elseif type(p.api_key_env) == "string" then
    local set = vim.env[p.api_key_env] ~= nil and vim.env[p.api_key_env] ~= ""
    table.insert(parts, "key from $" .. p.api_key_env .. (set and "" or " (not set)"))
  end
  return name .. ": " .. (#parts > 0 and table.concat(parts, ", ") or "settings given")
end

local function check_providers()
  h.start("Providers configured in setup()")
  local init = config.options.init_options or {}
  if type(init.model) == "string" then
    h.info("model: " .. init.model)
  end
  local providers = type(init.providers) == "table" and init.providers or {}
  local names = vim.tbl_keys(providers)
  table.sort(names)
  if #names == 0 then
    h.info("none: the server uses its config files and environment (see the doctor report above)")
    return
  end
  for _, name in ipairs(names) do
    local p = providers[name]
    if type(p) ~= "table" then
      h.error(name .. ": expected a table of settings")
    else
      h.ok(describe_provider(name, p))
    end
  end
end

local function check_clients()
  h.start("Running clients")
  local ids = require("agent_lsp.client").all()
  if #ids == 0 then
    h.info("no agent-lsp client is running (it starts when a file of a project is opened)")
    return
  end
  for _, id in ipairs(ids) do
    local c = vim.lsp.get_client_by_id(id)
    h.ok(string.format("client %d serving %s", id, c and c.config.root_dir or "?"))
    -- What the running server will use (your environment's provider variables handed over
    -- first), which a new `agent-lsp doctor` process cannot tell.
    local report, err = require("agent_lsp.server_env").report(id, 5000)
    if not report then
      h.warn(string.format("client %d: could not ask which providers it can call: %s", id, err))
    else
      for _, p in ipairs(report.providers or {}) do
        local line = string.format("client %d will call %s: %s", id, p.provider, p.detail)
        if p.ok then
          h.ok(line)
        else
          h.info(line)
        end
      end
    end
  end
end

--- Entry point of :checkhealth agent_lsp.
function M.check()
  local cwd = vim.fn.getcwd()
  local ok_buf, root = pcall(require("agent_lsp.client").root_for, vim.api.nvim_get_current_buf())
  if ok_buf and root then
    cwd = root
  end
  check_neovim()
  if check_server(cwd) then
    check_doctor(cwd)
  end
  check_providers()
  check_clients()
end

return M
