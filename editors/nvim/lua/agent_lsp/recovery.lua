---@mod agent_lsp.recovery A chat that outlives its server.
---
--- Whatever stopped the server (a crash, `:LspStop`, `:lsp restart` on 0.12, `:AgentRestart`),
--- its chats stay in their windows, marked stopped, and the next server of the same project takes
--- them back: each chat's session is loaded on it (its history replayed into a fresh buffer that
--- takes the old one's place in the same windows, with what you had typed), so a tab keeps one
--- chat window. After a crash the plugin starts that server itself, for the chat's own root, and
--- offers the session that was running; after a stop you asked for, the chat waits for you
--- (`:AgentChat` or sending from it starts the server again).

local util = require("agent_lsp.util")

local M = {}

--- Why a server ended, in words.
local function ending(code, signal)
  if signal and signal ~= 0 then
    return "was killed (signal " .. tostring(signal) .. ")"
  end
  if code and code ~= 0 then
    return "stopped with exit code " .. tostring(code)
  end
  return "stopped"
end

--- Whether the server ended on its own: a crash, not a stop someone asked for.
local function crashed(code, signal)
  return (signal ~= nil and signal ~= 0) or (code ~= nil and code ~= 0)
end

--- Loads `old`'s session on client `id` and puts the reloaded chat in its place; `after(chat)`.
--- A chat already being loaded (a server that just started took it) is not loaded twice: `after`
--- runs when that load is done.
---@param old agent_lsp.Chat
---@param id integer
---@param after fun(chat: agent_lsp.Chat)|nil
function M.reload(old, id, after)
  if old.reloading then
    table.insert(old.reloading, after)
    return
  end
  old.reloading = { after }
  local chat = require("agent_lsp.chat")
  chat.claim(old)
  if vim.api.nvim_buf_is_valid(old.buf) then
    -- The reloaded chat's buffer takes the session's name.
    pcall(vim.api.nvim_buf_set_name, old.buf, vim.api.nvim_buf_get_name(old.buf) .. " (stopped)")
  end
  local sent = require("agent_lsp.client").request(id, "agent/loadSession", { sessionId = old.session_id }, function(err, result)
    local waiting = old.reloading or {}
    old.reloading = nil
    if err or not result then
      require("agent_lsp.render").note(old, "_(could not load the session on the new server: " .. util.error_text(err) .. ")_")
      return
    end
    local fresh = chat.get(id, old.session_id) or chat.create(id, old.session_id, result)
    fresh.mode = result.mode or fresh.mode
    chat.replace(old, fresh)
    for _, then_do in ipairs(waiting) do
      then_do(fresh)
    end
  end)
  if not sent then
    old.reloading = nil
  end
end

--- A new session in `old`'s place, on client `id`.
---@param old agent_lsp.Chat
---@param id integer
local function fresh_session(old, id)
  local chat = require("agent_lsp.chat")
  chat.claim(old)
  chat.new_session(id, function(fresh)
    chat.replace(old, fresh)
  end)
end

--- Asks what to do with the session a crash interrupted: load it again (its history replayed
--- here) or start a new one in its window. No answer leaves the chat as it is (stopped).
---@param chats agent_lsp.Chat[] the root's stopped chats, the current first
---@param id integer the new client
---@param why string how the server ended
local function offer(chats, id, why)
  local first = chats[1]
  local choices = {
    { id = "reload", name = "Load the session again (its history is replayed here)" },
    { id = "new", name = "Start a new session in this window" },
  }
  vim.ui.select(choices, {
    prompt = string.format("agent-lsp: the server %s; a new one runs for %s. Session %s:", why, vim.fn.fnamemodify(first.root, ":~"), first.session_id),
    kind = "agent_lsp.recover",
    format_item = function(c)
      return c.name
    end,
  }, function(choice)
    if not choice then
      return
    end
    if choice.id == "new" then
      fresh_session(first, id)
      return
    end
    for _, chat in ipairs(chats) do
      M.reload(chat, id)
    end
  end)
end

--- Client `id` serves `root` now: its stopped chats come back (each session loaded; with
--- `opts.offer`, the user is asked first), and the root's file buffers are attached to it.
---@param root string
---@param id integer
---@param opts {offer: string|nil} offer: how the last server ended (after a crash)
function M.reattach(root, id, opts)
  require("agent_lsp.client").attach_root_buffers(root, id)
  local chats = require("agent_lsp.chat").orphans(root)
  if #chats == 0 then
    return
  end
  if opts.offer then
    offer(chats, id, opts.offer)
    return
  end
  for _, chat in ipairs(chats) do
    M.reload(chat, id)
  end
end

--- A client ended (on_exit). Its chats are kept, marked stopped; a crash restarts the server
--- for the same root and offers the session; a server already running there takes them back.
---@param id integer
---@param root string
---@param code integer|nil
---@param signal integer|nil
function M.on_exit(id, root, code, signal)
  local client = require("agent_lsp.client")
  local asked = client.stopped_here(id)
  local why = ending(code, signal)
  local note = asked and "_(restarting the agent-lsp server…)_"
    or string.format("_(the agent-lsp server %s; %s)_", why, crashed(code, signal) and "starting a new one" or ":AgentChat or sending from here starts it again")
  local chats = require("agent_lsp.chat").detach(id, { code = code, signal = signal, note = note })
  if #chats == 0 or asked then
    return
  end
  -- Another server of the root already runs (`:lsp restart` started it first): it takes them.
  local running = client.get(client.for_root_if_running(root))
  if running then
    M.reattach(root, running.id, {})
  elseif crashed(code, signal) then
    local new = client.for_root(root, { explicit = true })
    if new then
      M.reattach(root, new, { offer = why })
    end
  end
end

--- Starts a server for a stopped chat's project and loads its session there; `after(chat)`.
---@param chat agent_lsp.Chat
---@param after fun(chat: agent_lsp.Chat)|nil
function M.revive(chat, after)
  local id = require("agent_lsp.client").for_root(chat.root, { explicit = true })
  if not id then
    return
  end
  require("agent_lsp.client").attach_root_buffers(chat.root, id)
  M.reload(chat, id, after)
end

--- Stops the server of `root` and starts a new one, keeping its chats: each session is loaded
--- on the new server in its chat's window (:AgentRestart). The new server reads its config and
--- the environment afresh (a key set since).
---@param root string
function M.restart(root)
  local client = require("agent_lsp.client")
  local old = client.for_root_if_running(root)
  if old then
    client.stop(old)
    require("agent_lsp.chat").detach(old, { note = "_(restarting the agent-lsp server…)_" })
  end
  local id = client.for_root(root, { explicit = true })
  if not id then
    return
  end
  util.notify("restarted the server for " .. vim.fn.fnamemodify(root, ":~"))
  M.reattach(root, id, {})
end

return M
