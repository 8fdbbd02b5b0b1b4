---@mod agent_lsp.client One agent-lsp client per project root.
---
--- Starts the server with `vim.lsp.start` where it exists (0.8+), else `vim.lsp.start_client`,
--- attaches file buffers to the client of their root, declares the agent capabilities and
--- routes the agent's server-to-client methods to the chat and permission modules.

local config = require("agent_lsp.config")
local util = require("agent_lsp.util")

local M = {}

--- The client name, also how other code recognises our clients.
M.NAME = "agent-lsp"

---@type table<string, integer> root directory -> client id
local by_root = {}
---@type table<integer, string> client id -> its root directory
local roots = {}

--- The capabilities Neovim declares, plus the agent protocol's experimental ones.
---@return table
local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = caps.experimental or {}
  caps.experimental.agent = {
    requestPermission = true,
    askUser = true,
    saveDocuments = true,
    languageService = require("agent_lsp.language_service").METHODS,
  }
  caps.window = caps.window or {}
  caps.window.workDoneProgress = true
  return caps
end

--- Client-side handlers for the code-action commands: they run in the chat's session.
---@return table<string, function>
local function commands()
  local out = {}
  for _, name in ipairs({ "agent.fix", "agent.explain", "agent.refactor", "agent.tests" }) do
    out[name] = function(command, ctx)
      require("agent_lsp.actions").execute(command, ctx.client_id)
    end
  end
  return out
end

local function handlers()
  return {
    ["agent/update"] = function(_, params, ctx)
      if params then
        require("agent_lsp.chat").on_update(ctx.client_id, params)
      end
    end,
    ["agent/requestPermission"] = function(_, params, ctx)
      return require("agent_lsp.permission").request_permission(params, ctx)
    end,
    ["agent/askUser"] = function(_, params, ctx)
      return require("agent_lsp.permission").ask_user(params, ctx)
    end,
    ["agent/saveDocuments"] = function(_, params)
      return require("agent_lsp.save").save_documents(params)
    end,
    ["agent/languageService"] = function(_, params)
      return require("agent_lsp.language_service").handle(params)
    end,
  }
end

--- The project root of a buffer (agent_lsp.root says how it is found).
---@param bufnr integer
---@return string
function M.root_for(bufnr)
  return require("agent_lsp.root").for_buffer({ bufnr = bufnr, markers = config.options.root_markers, own_name = M.NAME })
end

---@type table<integer, boolean> clients asked to stop (they run until the server has exited)
local stopping = {}

--- Whether a client is stopped, or was asked to stop (it is never used or reused again).
local function stopped(c)
  if stopping[c.id] then
    return true
  end
  if util.has("0.11") then
    return c:is_stopped()
  end
  return c.is_stopped()
end

---@param id integer|nil
---@return table|nil client the running client `id` (nil when it stopped or is stopping)
function M.get(id)
  local client = id and vim.lsp.get_client_by_id(id)
  return client and not stopped(client) and client or nil
end

local function on_exit(root)
  return function(code, signal, client_id)
    if by_root[root] == client_id then
      by_root[root] = nil
    end
    vim.schedule(function()
      require("agent_lsp.recovery").on_exit(client_id, root, code, signal)
    end)
  end
end

--- The project root a client serves.
---@param id integer
---@return string|nil
function M.root_of(id)
  if roots[id] then
    return roots[id]
  end
  local c = vim.lsp.get_client_by_id(id)
  return c and c.config and c.config.root_dir or nil
end

--- Takes a running agent-lsp client of `root` that this module did not start (`:lsp restart`
--- on 0.12 starts a new client with the same config); nil when there is none.
---@param root string
---@return integer|nil
local function adopt(root)
  local all = (vim.lsp.get_clients or vim.lsp.get_active_clients)()
  for _, c in ipairs(all) do
    if c.name == M.NAME and c.config.root_dir == root and not stopped(c) then
      by_root[root], roots[c.id] = c.id, root
      return c.id
    end
  end
  return nil
end

--- A client of ours attached somewhere (LspAttach): one this module did not start (`:lsp
--- restart`) becomes its root's, and the chats its root's server left are taken back.
---@param id integer
function M.attached(id)
  local c = vim.lsp.get_client_by_id(id)
  if not c or c.name ~= M.NAME or roots[id] then
    return
  end
  local root = c.config.root_dir
  by_root[root], roots[id] = id, root
  require("agent_lsp.recovery").reattach(root, id, {})
end

---@param root string
---@return table
local function client_config(root)
  local opts = config.options
  return {
    name = M.NAME,
    cmd = opts.cmd,
    cmd_env = opts.cmd_env,
    root_dir = root,
    init_options = opts.init_options,
    capabilities = capabilities(),
    handlers = handlers(),
    commands = commands(),
    -- The agent reads the buffers as they are: send every change at once.
    flags = { debounce_text_changes = 0 },
    on_exit = on_exit(root),
  }
end

--- Starts a client; a file buffer is attached as it starts. A chat or other non-file buffer is
--- not attached: its name is no file the server could read.
---@param cfg table
---@param bufnr integer
---@return integer|nil client_id
local function start(cfg, bufnr)
  local attach = util.is_file_buffer(bufnr)
  -- A client of this root that is stopping (a restart) must not be reused for the new one.
  local function reuse(c, config)
    return c.name == config.name and c.config.root_dir == config.root_dir and not stopped(c)
  end
  if vim.lsp.start and attach then
    return vim.lsp.start(cfg, { bufnr = bufnr, reuse_client = reuse })
  end
  if vim.lsp.start and util.has("0.11") then
    -- 0.11 deprecates start_client in favour of start without attaching.
    return vim.lsp.start(cfg, { bufnr = bufnr, attach = false, reuse_client = reuse })
  end
  return vim.lsp.start_client(cfg)
end

---@type table<string, boolean> messages of a broken server command already shown
local reported = {}

--- Says once per Neovim session (per setup()) that the server cannot start, and how to fix it;
--- a command the user runs (`opts.explicit`) says it again.
local function report_broken(broken, opts)
  local msg = require("agent_lsp.server_cmd").message(broken)
  if reported[msg] and not (opts and opts.explicit) then
    return
  end
  reported[msg] = true
  util.error(msg)
end

--- Forgets which start failures were reported (setup() changed the command).
function M.reset_reports()
  reported = {}
end

--- The client serving the project at `root`: the running one, one started by someone else
--- (`:lsp restart`), else a new one (with `bufnr` attached when it is a file buffer).
---@param root string
---@param opts {explicit: boolean|nil, bufnr: integer|nil}|nil explicit: the user asked (a command)
---@return integer|nil client_id
---@return boolean|nil started true when this call started a new server
function M.for_root(root, opts)
  opts = opts or {}
  local id = by_root[root]
  if M.get(id) then
    return id
  end
  id = adopt(root)
  if id then
    return id
  end
  local broken = require("agent_lsp.server_cmd").check()
  if broken then
    report_broken(broken, opts)
    return nil
  end
  id = start(client_config(root), opts.bufnr or 0)
  if not id then
    util.error("the server did not start: " .. table.concat(config.options.cmd, " "))
    return nil
  end
  by_root[root], roots[id] = id, root
  require("agent_lsp.server_env").started(id)
  return id, true
end

--- The running client of `root` (one someone else started included), without starting one.
---@param root string
---@return integer|nil
function M.for_root_if_running(root)
  if M.get(by_root[root]) then
    return by_root[root]
  end
  return adopt(root)
end

--- The client serving `bufnr`'s project, started (and the buffer attached) when needed.
---@param bufnr integer
---@param opts {explicit: boolean|nil}|nil explicit: the user asked (a command), not autostart
---@return integer|nil client_id
function M.ensure(bufnr, opts)
  local root = M.root_for(bufnr)
  local id, started = M.for_root(root, { explicit = opts and opts.explicit, bufnr = bufnr })
  if id and util.is_file_buffer(bufnr) and not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  if started and #require("agent_lsp.chat").orphans(root) > 0 then
    -- A server started for a file (autostart after :LspStop, a command) takes back the chats
    -- its project's last server left, so the tab keeps its one chat window.
    require("agent_lsp.recovery").reattach(root, id, {})
  end
  return id
end

--- Attaches every loaded file buffer of `root` to client `id` (a new server of the project).
---@param root string
---@param id integer
function M.attach_root_buffers(root, id)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and util.is_file_buffer(buf) and M.root_for(buf) == root and not vim.lsp.buf_is_attached(buf, id) then
      pcall(vim.lsp.buf_attach_client, buf, id)
    end
  end
end

--- Whether this module asked client `id` to stop (a restart), as opposed to a crash or another stop.
---@param id integer
---@return boolean
function M.stopped_here(id)
  return stopping[id] == true
end

--- Stops client `id` (it exits; its on_exit runs later).
---@param id integer
function M.stop(id)
  local c = vim.lsp.get_client_by_id(id)
  if not c then
    return
  end
  stopping[id] = true
  if by_root[roots[id] or ""] == id then
    by_root[roots[id]] = nil
  end
  if util.has("0.11") then
    c:stop()
  else
    c.stop()
  end
end

--- Attaches a buffer when autostart applies to it.
---@param bufnr integer
function M.maybe_attach(bufnr)
  local opts = config.options
  if not opts.autostart or not util.is_file_buffer(bufnr) then
    return
  end
  if opts.filetypes and not vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) then
    return
  end
  M.ensure(bufnr)
end

--- The client for the current context: the chat's own when in a chat buffer (a chat whose
--- server stopped: its project's, never the current directory's), the review's in a review, else
--- the current buffer's project (started when needed).
---@return integer|nil client_id
function M.current()
  local buf = vim.api.nvim_get_current_buf()
  local chat = require("agent_lsp.chat").by_buffer(buf)
  if chat then
    return M.get(chat.client_id) and chat.client_id or M.for_root(chat.root, { explicit = true })
  end
  local review = require("agent_lsp.diff").review_of(buf)
  if review and M.get(review.client_id) then
    return review.client_id
  end
  return M.ensure(buf, { explicit = true })
end

--- Every running agent client id.
---@return integer[]
function M.all()
  local ids = {}
  for _, id in pairs(by_root) do
    if M.get(id) then
      table.insert(ids, id)
    end
  end
  return ids
end

--- Sends a request on client `id`, reporting a failure to send.
---@param id integer
---@param method string
---@param params table
---@param handler fun(err: table|nil, result: any)
---@return boolean sent
function M.request(id, method, params, handler)
  local client = M.get(id)
  if not client then
    util.error("the agent-lsp server is not running")
    return false
  end
  local ok = util.request(client, method, params, function(err, result)
    handler(err, result)
  end)
  if not ok then
    util.error("could not send " .. method .. " (the server stopped?)")
  end
  return ok
end

--- Sends a notification on client `id`.
---@param id integer
---@param method string
---@param params table
---@return boolean sent
function M.notify(id, method, params)
  local client = M.get(id)
  return client ~= nil and util.notify_server(client, method, params)
end

--- The offset encoding of client `id` (utf-16 unless the client negotiated otherwise).
---@param id integer
---@return string
function M.encoding(id)
  local client = M.get(id)
  return (client and client.offset_encoding) or "utf-16"
end

return M
