---@mod agent_lsp.chat The chat buffer: one per session, shown in a split.
---
--- A markdown buffer: the transcript on top, then a prompt line, then the text you type. <CR> in
--- normal mode sends what is under the prompt line; the answer streams in above it.

local client = require("agent_lsp.client")
local config = require("agent_lsp.config")
local render = require("agent_lsp.render")
local windows = require("agent_lsp.chat_window")
local status = require("agent_lsp.status")
local util = require("agent_lsp.util")

local M = {}

---@class agent_lsp.Chat
---@field client_id integer
---@field session_id string
---@field buf integer
---@field mark integer extmark of the prompt line
---@field prompt_text string
---@field busy boolean a prompt is running
---@field mode string|nil
---@field model string|nil
---@field tools table<string, table>
---@field need_heading boolean
---@field stream_kind string|nil
---@field plan table|nil
---@field commands table[]|nil the session's slash commands (agent/listCommands), for completion
---@field turn integer|nil the number of the turn this Neovim sent last
---@field answering boolean|nil the model's current message has begun (no spinner needed)
---@field pending_approval string|nil what waits for the user's answer
---@field tokens integer|nil tokens in and out of the session, as seen here
---@field cost number|nil cost of the session, when known
---@field declined table<string, boolean>|nil tool calls the user said No to
---@field last_prompt {text: string, context: table|nil}|nil what :AgentRetry sends again
---@field history_index integer|nil where <Up>/<Down> are in the prompt history
---@field history_draft string|nil the half-typed prompt <Down> brings back
---@field input_undo {states: string[], at: integer} the input's own undo steps (agent_lsp.input_undo)
---@field editing {context: table|nil}|nil the input is an edit of the last prompt (:AgentEdit)
---@field exchange_mark integer|nil extmark of the last prompt's "## You" header
---@field last_user_text string|nil the last prompt shown (sent or replayed)
---@field explanation string|nil the text of the model's latest message (shown atop a review)
---@field explanation_done boolean|nil a tool call followed it: the next text starts anew
---@field root string the project root of the chat's server (a restarted server serves the same)
---@field detached {code: integer|nil, signal: integer|nil}|nil its server stopped (agent_lsp.recovery)
---@field reloading fun(chat: agent_lsp.Chat)[]|nil its session is being loaded on a new server; run these then

---@type table<integer, table<string, agent_lsp.Chat>> client id -> session id -> chat
local chats = {}
---@type table<integer, string> client id -> the session :AgentChat shows
local current = {}
---@type table<integer, agent_lsp.Chat> buffer -> chat
local by_buf = {}
---@type table<string, agent_lsp.Chat[]> root -> chats whose server stopped, the current one first
local orphans = {}


--- Keeps chat windows other than the one the user is in scrolled to the end.
---@param chat agent_lsp.Chat
function M.follow(chat)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  local here = vim.api.nvim_get_current_win()
  for _, win in ipairs(windows.all(chat.buf)) do
    if win ~= here then
      vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(chat.buf), 0 })
    end
  end
end

local function forget(chat)
  if by_buf[chat.buf] == chat then
    by_buf[chat.buf] = nil
  end
  -- A chat replaced by its session's reload keeps no claim on the new one's place.
  if chats[chat.client_id] and chats[chat.client_id][chat.session_id] == chat then
    chats[chat.client_id][chat.session_id] = nil
    if current[chat.client_id] == chat.session_id then
      current[chat.client_id] = nil
    end
  end
  M.claim(chat) -- a forgotten chat is nobody's orphan either
end

--- Creates the chat of a session (without showing it).
---@param client_id integer
---@param session_id string
---@param info table|nil {mode, model}
---@return agent_lsp.Chat
function M.create(client_id, session_id, info)
  info = info or {}
  local buf = util.scratch_buffer("agent-lsp://chat/" .. session_id, "markdown")
  -- The transcript is a log: streamed text must not become undo steps of the prompt you type.
  -- The input has its own undo (agent_lsp.input_undo).
  vim.bo[buf].undolevels = -1
  local text = require("agent_lsp.chat_keys").prompt_text()
  local subtitle = { "session " .. session_id }
  if info.mode then
    table.insert(subtitle, "mode " .. info.mode)
  end
  if info.model then
    table.insert(subtitle, info.model)
  end
  local lines = { "# agent-lsp chat", "_" .. table.concat(subtitle, " · ") .. "_", text, "" }
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  ---@type agent_lsp.Chat
  local chat = {
    client_id = client_id,
    session_id = session_id,
    buf = buf,
    prompt_text = text,
    mark = render.mark_prompt(buf, 2, text, nil),
    busy = false,
    mode = info.mode,
    model = info.model,
    tools = {},
    need_heading = false,
    root = client.root_of(client_id) or vim.fn.getcwd(),
  }
  chats[client_id] = chats[client_id] or {}
  chats[client_id][session_id] = chat
  by_buf[buf] = chat
  current[client_id] = current[client_id] or session_id
  require("agent_lsp.chat_keys").set(chat, M)
  vim.bo[buf].omnifunc = "v:lua.require'agent_lsp.chat'.complete_command"
  M.fetch_commands(chat)
  require("agent_lsp.complete").attach(buf)
  if config.options.chat.completion_sources then
    require("agent_lsp.complete_sources").attach(buf)
  end
  local group = vim.api.nvim_create_augroup("agent_lsp_chat_" .. buf, { clear = true })
  vim.api.nvim_create_autocmd("BufWinEnter", {
    group = group,
    buffer = buf,
    callback = function()
      windows.setup(vim.api.nvim_get_current_win())
    end,
  })
  require("agent_lsp.input_undo").attach(chat, group)
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = buf,
    callback = function()
      forget(chat)
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
  return chat
end

--- Shows a chat: in the window of this tab that shows it, else in the tab's chat window (in
--- place of the chat shown there), else in a new window of the configured layout.
---@param chat agent_lsp.Chat
---@param focus boolean move the cursor into the chat, to the end
function M.show(chat, focus)
  current[chat.client_id] = chat.session_id
  local win = windows.in_tab(chat.buf)[1]
  if not win then
    win = windows.chat_window(function(buf)
      return by_buf[buf] ~= nil
    end)
    if win then
      vim.api.nvim_win_set_buf(win, chat.buf)
    else
      local here = vim.api.nvim_get_current_win()
      win = windows.open(chat.buf)
      if not focus then
        vim.api.nvim_set_current_win(here)
      end
    end
    windows.setup(win)
  end
  vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(chat.buf), 0 })
  if focus then
    vim.api.nvim_set_current_win(win)
  end
end

--- Hides the chat when this tab shows it, else shows it and goes to it (:AgentChat).
---@param chat agent_lsp.Chat
function M.toggle(chat)
  local shown = windows.in_tab(chat.buf)
  if #shown == 0 then
    M.show(chat, true)
    return
  end
  for _, win in ipairs(shown) do
    if #vim.api.nvim_tabpage_list_wins(0) > 1 then
      vim.api.nvim_win_close(win, false)
    else
      util.notify("the chat is the only window of this tab")
    end
  end
end

---@param buf integer
---@return agent_lsp.Chat|nil
function M.by_buffer(buf)
  return by_buf[buf]
end

--- The chat :AgentChat would show for a client.
---@param client_id integer
---@return agent_lsp.Chat|nil
function M.current(client_id)
  local sid = current[client_id]
  return sid and chats[client_id] and chats[client_id][sid] or nil
end

--- Starts a session and its chat.
---@param client_id integer
---@param callback fun(chat: agent_lsp.Chat)
function M.new_session(client_id, callback)
  local opts = config.options
  local params = { mode = opts.mode, model = opts.model }
  -- The session's model is checked against the providers the server can call: keys first.
  require("agent_lsp.server_env").sync(client_id)
  client.request(client_id, "agent/newSession", params, function(err, result)
    if err or not result then
      util.error("agent/newSession failed: " .. util.error_text(err))
      return
    end
    local chat = M.create(client_id, result.sessionId, result)
    current[client_id] = chat.session_id
    callback(chat)
  end)
end

--- The client's current chat, or a new session's.
---@param client_id integer
---@param callback fun(chat: agent_lsp.Chat)
function M.with_chat(client_id, callback)
  local chat = M.current(client_id)
  if chat then
    callback(chat)
  else
    M.new_session(client_id, callback)
  end
end

--- The session's slash commands for completion (agent_lsp.complete has the details).
M.fetch_commands = function(chat)
  require("agent_lsp.complete").fetch_commands(chat)
end
--- The chat buffer's 'omnifunc': `/command` completion (agent_lsp.complete).
M.complete_command = function(findstart, base)
  return require("agent_lsp.complete").complete_command(findstart, base)
end

local turn = require("agent_lsp.chat_turn")
M.run_turn = turn.run_turn
M.prompt = turn.prompt
M.retry = turn.retry
--- Edits the chat's last prompt; sending it replaces the last exchange (:AgentEdit).
M.edit = function(chat)
  require("agent_lsp.prompt_edit").toggle(chat)
end

--- Sends the text under the prompt line (agent_lsp.chat_turn).
M.send_input = function(chat)
  turn.send_input(chat)
end


--- Cancels the chat's running turn.
---@param chat agent_lsp.Chat
function M.cancel(chat)
  if chat.busy then
    -- The cancel first: the server stops the turn, and the refusal the closed review sends
    -- after it cannot let the turn go on to another model call.
    client.notify(chat.client_id, "agent/cancel", { sessionId = chat.session_id })
  end
  require("agent_lsp.permission").close_session(chat.client_id, chat.session_id)
  if not chat.busy then
    util.notify("nothing to cancel")
  end
end

--- agent/update: renders into the session's chat (created on first sight, e.g. on replay).
---@param client_id integer
---@param params table {sessionId, update}
function M.on_update(client_id, params)
  local sid = params.sessionId
  if type(sid) ~= "string" or type(params.update) ~= "table" then
    return
  end
  local chat = chats[client_id] and chats[client_id][sid] or M.create(client_id, sid)
  util.try("rendering an agent update", render.update, chat, params.update)
  status.on_update(chat, params.update)
  M.follow(chat)
end

--- The client stopped: its chats stay (readable, in their windows) as orphans of their root until
--- a server of that root takes them back (agent_lsp.recovery). Returns them, the current first.
---@param client_id integer
---@param info {code: integer|nil, signal: integer|nil, note: string}
---@return agent_lsp.Chat[]
function M.detach(client_id, info)
  local list = {}
  for sid, chat in pairs(chats[client_id] or {}) do
    if vim.api.nvim_buf_is_valid(chat.buf) then
      chat.busy = false
      chat.pending_approval = nil
      chat.detached = { code = info.code, signal = info.signal }
      require("agent_lsp.permission").close_session(client_id, sid)
      status.refresh(chat)
      render.note(chat, info.note)
      table.insert(list, sid == current[client_id] and 1 or #list + 1, chat)
    end
  end
  chats[client_id] = nil
  current[client_id] = nil
  for _, chat in ipairs(list) do
    orphans[chat.root] = orphans[chat.root] or {}
    table.insert(orphans[chat.root], chat)
  end
  return list
end

--- The chats of `root` whose server stopped and that no server took back yet.
---@param root string
---@return agent_lsp.Chat[]
function M.orphans(root)
  return { unpack(orphans[root] or {}) }
end

--- Takes `chat` out of the orphans (a server is taking it back).
---@param chat agent_lsp.Chat
function M.claim(chat)
  for _, list in pairs(orphans) do
    for i = #list, 1, -1 do
      if list[i] == chat then
        table.remove(list, i)
      end
    end
  end
end

--- Puts `fresh` (the same session, reloaded on a new server) where `old` was: in each of its
--- windows, with the text you had typed under its prompt line and its last prompt; `old` goes.
---@param old agent_lsp.Chat
---@param fresh agent_lsp.Chat
function M.replace(old, fresh)
  if vim.api.nvim_buf_is_valid(old.buf) then
    local row = render.prompt_row(old)
    local draft = vim.api.nvim_buf_get_lines(old.buf, row + 1, -1, false)
    local fresh_row = render.prompt_row(fresh)
    vim.api.nvim_buf_set_lines(fresh.buf, fresh_row + 1, -1, false, #draft > 0 and draft or { "" })
    for _, win in ipairs(windows.all(old.buf)) do
      vim.api.nvim_win_set_buf(win, fresh.buf)
      windows.setup(win)
      vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(fresh.buf), 0 })
    end
  end
  fresh.last_prompt = fresh.last_prompt or old.last_prompt
  current[fresh.client_id] = fresh.session_id
  M.claim(old)
  forget(old)
  if vim.api.nvim_buf_is_valid(old.buf) then
    pcall(vim.api.nvim_buf_delete, old.buf, { force = true })
  end
  status.refresh(fresh)
end

--- Every open chat, of every client.
---@return agent_lsp.Chat[]
function M.list()
  local out = {}
  for _, by_session in pairs(chats) do
    for _, chat in pairs(by_session) do
      table.insert(out, chat)
    end
  end
  return out
end

--- Sets the current chat of a client to a session that already has one.
---@param client_id integer
---@param session_id string
---@return agent_lsp.Chat|nil
function M.get(client_id, session_id)
  return chats[client_id] and chats[client_id][session_id] or nil
end

return M
