---@mod agent_lsp agent-lsp for Neovim: an AI coding agent running as a language server.
---
--- Public API (every function takes one table of options):
---   setup(opts)       configure; attach file buffers to one server per project root
---   chat(opts)        open the chat of the current project ({focus = true, toggle = false})
---   new_session()     start a fresh session in a new chat
---   cancel()          cancel the running turn of the current chat
---   restart()         restart the project's server, keeping its chats (sessions loaded again)
---   retry()           send the current chat's last prompt again
---   edit()            edit the current chat's last prompt; sending it replaces the last exchange
---   sessions()        pick a saved session and load it (history replayed into a chat)
---   set_mode(opts)    {mode = "read_only"|"plan"|"ask"|"auto"|"full_access"}
---   ask(opts)         {text, range?, line1?, line2?}: prompt with the buffer (and lines) as context
---   actions(opts)     {range?, line1?, line2?}: the agent's code actions for the line or lines
---   doctor(opts)      {live?}: agent-lsp doctor's report in a buffer (:AgentDoctor [live])
---   status()          {running, mode, model, tokens, cost, pending_approval, activity} for statuslines

local config = require("agent_lsp.config")
local util = require("agent_lsp.util")

local M = {}

local did_setup = false

local function set_global_keymaps()
  local keys = config.options.keymaps.global
  if keys.chat then
    vim.keymap.set("n", keys.chat, function()
      M.chat({})
    end, { desc = "agent-lsp: open the chat" })
  end
  if keys.actions then
    vim.keymap.set("n", keys.actions, function()
      M.actions({})
    end, { desc = "agent-lsp: agent code actions" })
    vim.keymap.set("x", keys.actions, ":AgentActions<CR>", { silent = true, desc = "agent-lsp: agent code actions" })
  end
  if keys.ask then
    vim.keymap.set("x", keys.ask, ":AgentAsk ", { desc = "agent-lsp: ask about the selection" })
  end
end

--- Configures the plugin. Safe to call again: the latest options win.
---@param opts agent_lsp.Config|nil
---@return boolean ok
function M.setup(opts)
  local resolved, err = config.resolve(opts)
  if not resolved then
    util.error("setup: " .. err)
    return false
  end
  config.options = resolved
  did_setup = true
  require("agent_lsp.client").reset_reports()
  local client = require("agent_lsp.client")
  local group = vim.api.nvim_create_augroup("agent_lsp", { clear = true })
  vim.api.nvim_create_autocmd({ "BufEnter", "WinEnter" }, {
    group = group,
    callback = function(args)
      require("agent_lsp.context").track(args.buf)
    end,
  })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    callback = function(args)
      util.try("attaching agent-lsp", client.maybe_attach, args.buf)
    end,
  })
  if util.has("0.8") then
    -- A server of ours someone else started (`:lsp restart`) takes the chats of its root back.
    vim.api.nvim_create_autocmd("LspAttach", {
      group = group,
      callback = function(args)
        util.try("taking a restarted agent-lsp server", client.attached, args.data.client_id)
      end,
    })
  end
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) then
      util.try("attaching agent-lsp", client.maybe_attach, buf)
    end
  end
  set_global_keymaps()
  return true
end

--- Commands work before setup() too, with the defaults.
local function ensure_setup()
  if not did_setup then
    M.setup({})
  end
end

---@return integer|nil client_id
local function current_client()
  ensure_setup()
  return require("agent_lsp.client").current()
end

--- The chat here: the current buffer's, else the one this tab shows, if any (stopped ones too).
---@return agent_lsp.Chat|nil
local function chat_here()
  local chat = require("agent_lsp.chat")
  local here = chat.by_buffer(vim.api.nvim_get_current_buf())
  if here then
    return here
  end
  local win = require("agent_lsp.chat_window").chat_window(function(buf)
    return chat.by_buffer(buf) ~= nil
  end)
  return win and chat.by_buffer(vim.api.nvim_win_get_buf(win)) or nil
end

--- The first stopped chat of `bufnr`'s project (its server stopped), if any.
---@param bufnr integer
---@return agent_lsp.Chat|nil
local function stopped_chat_of(bufnr)
  if not util.is_file_buffer(bufnr) then
    return nil
  end
  return require("agent_lsp.chat").orphans(require("agent_lsp.client").root_for(bufnr))[1]
end

--- Opens (or shows) the chat of the current project. A chat here whose server stopped gets its
--- project's server back and its session loaded again, in the same window.
--- With `toggle`, hides it instead when this tab shows it (:AgentChat).
---@param opts {focus: boolean|nil, toggle: boolean|nil}|nil
function M.chat(opts)
  opts = opts or {}
  ensure_setup()
  local here = chat_here()
  -- A stopped chat comes back, here or (from another tab) of this buffer's project, rather than
  -- a second chat with a new session beside it.
  local stopped = here and here.detached and here or (not here and stopped_chat_of(vim.api.nvim_get_current_buf())) or nil
  if stopped then
    require("agent_lsp.recovery").revive(stopped, function(c)
      require("agent_lsp.chat").show(c, opts.focus ~= false)
    end)
    return
  end
  local id = current_client()
  if not id then
    return
  end
  local chat = require("agent_lsp.chat")
  chat.with_chat(id, function(c)
    if opts.toggle then
      chat.toggle(c)
    else
      chat.show(c, opts.focus ~= false)
    end
  end)
end

--- Starts a new session in a new chat.
function M.new_session(_)
  local id = current_client()
  if not id then
    return
  end
  local chat = require("agent_lsp.chat")
  chat.new_session(id, function(c)
    chat.show(c, true)
  end)
end

--- Runs `action` of agent_lsp.chat on the current chat, or says there is none.
local function on_current_chat(action, what)
  local chat
  -- From a review's tab, the chat is that of the session whose change is under review.
  local review = require("agent_lsp.diff").review_of(vim.api.nvim_get_current_buf())
  if review then
    ensure_setup()
    chat = require("agent_lsp.chat").get(review.client_id, review.params.sessionId)
  else
    -- The chat you are in (or a stopped one this tab shows): a stopped chat is revived below,
    -- never answered with "no chat" by the new server that would have nothing yet.
    local here = chat_here()
    if here and (here.detached or here.buf == vim.api.nvim_get_current_buf()) then
      chat = here
    else
      local id = current_client()
      chat = id and require("agent_lsp.chat").current(id)
    end
  end
  if not chat then
    util.notify("no chat to " .. what)
    return
  end
  if chat.detached and action ~= "cancel" then
    require("agent_lsp.recovery").revive(chat, function(c)
      require("agent_lsp.chat")[action](c)
    end)
    return
  end
  require("agent_lsp.chat")[action](chat)
end

--- Stops the current project's server and starts a new one, keeping the chats: each session is
--- loaded again on the new server, in its window (:AgentRestart). The new server reads its
--- config and your environment afresh.
function M.restart(_)
  ensure_setup()
  local client = require("agent_lsp.client")
  local here = chat_here()
  local review = require("agent_lsp.diff").review_of(vim.api.nvim_get_current_buf())
  local root = (here and here.root) or (review and client.root_of(review.client_id)) or client.root_for(vim.api.nvim_get_current_buf())
  require("agent_lsp.recovery").restart(root)
end

--- Sends the current chat's last prompt again.
function M.retry(_)
  on_current_chat("retry", "retry in")
end

--- Puts the current chat's last prompt into its input to edit: sending it replaces the last
--- exchange (the server forgets it; its log keeps it). Again, it stops editing.
function M.edit(_)
  on_current_chat("edit", "edit in")
end

--- Cancels the running turn of the current chat.
function M.cancel(_)
  on_current_chat("cancel", "cancel")
end

local function load_session(id, session)
  local chat = require("agent_lsp.chat")
  local existing = chat.get(id, session.sessionId)
  if existing then
    chat.show(existing, true)
    return
  end
  -- The server replays the history as agent/update before answering; the chat builds from it.
  require("agent_lsp.client").request(id, "agent/loadSession", { sessionId = session.sessionId }, function(err, result)
    if err or not result then
      util.error("loading the session failed: " .. util.error_text(err))
      return
    end
    local c = chat.get(id, session.sessionId) or chat.create(id, session.sessionId, result)
    c.mode = result.mode
    chat.show(c, true)
  end)
end

--- Lists the project's saved sessions and loads the one picked.
function M.sessions(_)
  local id = current_client()
  if not id then
    return
  end
  require("agent_lsp.client").request(id, "agent/listSessions", {}, function(err, result)
    if err then
      util.error("listing sessions failed: " .. util.error_text(err))
      return
    end
    local sessions = result and result.sessions or {}
    if #sessions == 0 then
      util.notify("no saved sessions in this project")
      return
    end
    local chat_mod = require("agent_lsp.chat")
    local here = chat_mod.current(id)
    vim.ui.select(sessions, {
      prompt = "Agent sessions",
      kind = "agent_lsp.sessions",
      format_item = function(s)
        local mark = (here and here.session_id == s.sessionId) and "● " or "  "
        local title = (type(s.title) == "string" and s.title ~= "") and s.title or s.sessionId
        return string.format("%s%s  %s", mark, util.local_time(s.updatedAt), title)
      end,
    }, function(choice)
      if choice then
        load_session(id, choice)
      end
    end)
  end)
end

--- Switches the session's model (:AgentModel); without one, offers the models (agent_lsp.model).
---@param opts {model: string|nil}|nil
function M.set_model(opts)
  ensure_setup()
  require("agent_lsp.model").set_model(opts)
end

--- Shows the current mode and offers the others (:AgentMode without an argument).
local function pick_mode()
  local id = current_client()
  local chat = id and require("agent_lsp.chat").current(id)
  local now = chat and chat.mode or config.options.mode
  vim.ui.select(config.MODES, {
    prompt = "Safety mode (now: " .. (now or "the server's default") .. ")",
    kind = "agent_lsp.mode",
    format_item = function(m)
      return m == now and (m .. "  (current)") or m
    end,
  }, function(choice)
    if choice and choice ~= now then
      M.set_mode({ mode = choice })
    end
  end)
end

--- Switches the safety mode of the current chat's session (or of the next session); without a
--- mode, shows the current one and offers the others.
---@param opts {mode: string|nil}|nil
function M.set_mode(opts)
  local mode = opts and opts.mode
  if mode == nil or mode == "" then
    pick_mode()
    return
  end
  if not vim.tbl_contains(config.MODES, mode) then
    util.error(string.format("unknown mode %q: one of %s", tostring(mode), table.concat(config.MODES, ", ")))
    return
  end
  local id = current_client()
  require("agent_lsp.session_setting").set(id, id and require("agent_lsp.chat").current(id), "mode", mode)
end

--- Shows what fills the context window of the current chat's session (`/context`) in the chat.
function M.context(_)
  ensure_setup()
  local id = current_client()
  local chat = id and require("agent_lsp.chat").current(id)
  if not chat then
    util.warn("no agent chat here: open one with :AgentChat")
    return
  end
  require("agent_lsp.chat").show(chat, false)
  require("agent_lsp.chat_turn").run_command(chat, "/context")
end

--- The chat a statusline speaks of: the one in the current window, else the current project's,
--- else one waiting for an approval or running, else any.
local function status_chat()
  local chat_mod = require("agent_lsp.chat")
  local here = chat_mod.by_buffer(vim.api.nvim_get_current_buf())
  if here then
    return here
  end
  local buf = vim.api.nvim_get_current_buf()
  local all = chat_mod.list()
  for _, c in ipairs(all) do
    if vim.lsp.buf_is_attached(buf, c.client_id) and chat_mod.current(c.client_id) == c then
      return c
    end
  end
  for _, c in ipairs(all) do
    if c.pending_approval then
      return c
    end
  end
  for _, c in ipairs(all) do
    if c.busy then
      return c
    end
  end
  return all[1]
end

--- The state of the agent for statuslines: cheap, never starts a server, never errors.
---@return agent_lsp.Status
function M.status(_)
  local ok, result = pcall(function()
    return require("agent_lsp.status").of(status_chat())
  end)
  return ok and result or { running = false, tokens = 0 }
end

--- Runs `agent-lsp doctor` (with `live`: one model call, local servers) for the current project
--- and shows its report in a scratch buffer when it ends.
---@param opts {live: boolean|nil}|nil
function M.doctor(opts)
  ensure_setup()
  require("agent_lsp.health").show_doctor({ live = opts and opts.live or false })
end

--- Prompts with the current buffer (and the given lines) as context.
---@param opts {text: string, range: boolean|nil, line1: integer|nil, line2: integer|nil}
function M.ask(opts)
  ensure_setup()
  require("agent_lsp.actions").ask(opts or {})
end

--- The agent's code actions for the cursor line or the given lines.
---@param opts {range: boolean|nil, line1: integer|nil, line2: integer|nil}|nil
function M.actions(opts)
  ensure_setup()
  require("agent_lsp.actions").menu(opts or {})
end

return M
