---@mod agent_lsp.chat_turn One turn of a chat: a prompt or a slash command, and its end.

local client = require("agent_lsp.client")
local render = require("agent_lsp.render")
local status = require("agent_lsp.status")
local util = require("agent_lsp.util")

local M = {}

--- The project root of a chat's server (for @paths and /file).
local function root_of(chat)
  local c = vim.lsp.get_client_by_id(chat.client_id)
  return c and c.config.root_dir or vim.fn.getcwd()
end

local function stop_note(result)
  if result.stopReason == "end_turn" then
    return nil
  elseif result.stopReason == "cancelled" then
    return "_(cancelled)_"
  elseif result.stopReason == "error" then
    return nil -- the error update already said why
  end
  return "_(stopped: " .. tostring(result.stopReason) .. ")_"
end

--- The commands the plugin answers itself, for /help.
local OWN_COMMANDS = {
  { "/new", "Start a fresh session in this window (the old chat stays)." },
  { "/clear", "Start a fresh session in this window and close this chat." },
}

--- The server's /help ("/usage   summary" per line) as a markdown table, with the plugin's own
--- commands; a text of another shape comes back as it is.
---@param message string
---@return string
function M.help_table(message)
  local rows = { "| Command | What it does |", "| --- | --- |" }
  local function row(command, summary)
    table.insert(rows, string.format("| `%s` | %s |", vim.trim(command), (summary:gsub("|", "\\|"))))
  end
  for _, line in ipairs(vim.split(vim.trim(message), "\n", { plain = true })) do
    local command, summary = line:match("^(/.-)%s%s+(%S.*)$")
    if not command then
      command, summary = line:match("^(/%S+)%s+(%S.*)$")
    end
    if not command then
      return message
    end
    row(command, summary)
  end
  for _, own in ipairs(OWN_COMMANDS) do
    row(own[1], own[2])
  end
  return table.concat(rows, "\n")
end

--- Runs a slash command (`/context`) of the chat's session and shows its answer in the chat.
---@param chat agent_lsp.Chat
---@param text string
local function run_command(chat, text)
  local words = vim.split(vim.trim(text), "%s+")
  local name = table.remove(words, 1)
  -- A command is no exchange an edit could replace: the last prompt's stays the one.
  render.user_message(chat, text, { command = true })
  chat.need_heading = false
  -- An MCP prompt's command runs a whole turn: the chat is busy (and cancellable) meanwhile.
  chat.busy = true
  require("agent_lsp.server_env").sync(chat.client_id)
  local sent = client.request(chat.client_id, "agent/command", { sessionId = chat.session_id, command = name, args = words }, function(err, result)
    chat.busy = false
    -- A command may change what there is (/mode, a server that became ready): fetch the list again.
    require("agent_lsp.chat").fetch_commands(chat)
    local message = result and result.message or ""
    if name == "/help" and not err then
      message = M.help_table(message)
    end
    message = err and ("**Error:** " .. util.error_text(err)) or message
    if message ~= "" then
      render.note(chat, message)
    end
    require("agent_lsp.chat").follow(chat)
  end)
  if not sent then
    chat.busy = false
  end
end

M.run_command = run_command

--- Runs one turn of the chat's session: shows `label` as the user's message and sends `method`
--- (agent/prompt, or workspace/executeCommand for a code action); the answer ({stopReason})
--- ends the turn and closes the reviews it left open. One turn at a time per chat.
---@param chat agent_lsp.Chat
---@param opts {label: string, method: string, params: table, busy_hint: string|nil, show: boolean|nil}
---@return boolean sent
function M.run_turn(chat, opts)
  if chat.busy then
    util.warn(opts.busy_hint or "the agent is still answering; cancel with :AgentCancel")
    return false
  end
  if opts.show then
    require("agent_lsp.chat").show(chat, false)
  end
  render.user_message(chat, opts.label)
  -- A key set in Neovim since the server started reaches it before the turn asks the model.
  require("agent_lsp.server_env").sync(chat.client_id)
  chat.busy = true
  chat.turn = (chat.turn or 0) + 1
  chat.answering = false
  local sent = client.request(chat.client_id, opts.method, opts.params, function(err, result)
    chat.busy = false
    status.refresh(chat)
    require("agent_lsp.permission").close_session(chat.client_id, chat.session_id)
    if err then
      render.note(chat, "**Error:** " .. util.error_text(err))
    elseif type(result) == "table" then
      local note = stop_note(result)
      if note then
        render.note(chat, note)
      end
    end
    require("agent_lsp.chat").follow(chat)
  end)
  if not sent then
    chat.busy = false
  end
  status.refresh(chat)
  require("agent_lsp.chat").follow(chat)
  return sent
end

--- Sends a prompt in a chat. `context` is the agent/prompt context ({uri, range, diagnostics}).
---@param chat agent_lsp.Chat
---@param opts {text: string, context: table|nil}
---@return boolean sent
function M.prompt(chat, opts)
  local history = require("agent_lsp.prompt_history")
  history.push(opts.text)
  history.reset(chat)
  if not chat.busy and not opts.context then
    local command = vim.trim(opts.text)
    if command == "/clear" or command == "/new" then
      M.fresh_session(chat, command == "/clear")
      return true
    elseif command == "/file" or command == "/buffer" then
      M.pick(chat, command)
      return true
    elseif command:match("^/") then
      run_command(chat, opts.text)
      return true
    end
  end
  if chat.busy then
    util.warn("the agent is still answering; cancel with :AgentCancel")
    return false
  end
  local edit = require("agent_lsp.prompt_edit").take(chat)
  local context = opts.context or (edit and edit.context)
  chat.last_prompt = { text = opts.text, context = context }
  local items, problems = require("agent_lsp.context").collect(opts.text, root_of(chat))
  local prompt = opts.text
  if #items > 0 then
    prompt = { { type = "text", text = opts.text } }
    for _, item in ipairs(items) do
      table.insert(prompt, item.block)
    end
  end
  local params = { sessionId = chat.session_id, prompt = prompt, context = context, replaceLast = edit and true or nil }
  local sent = M.run_turn(chat, { label = opts.text, method = "agent/prompt", params = params })
  if sent then
    render.attachments(chat, items, problems)
  end
  return sent
end

--- /file and /buffer: pick a project file or a buffer and put `@path` / `#buffer:name` into the
--- input, to send with the next prompt.
---@param chat agent_lsp.Chat
---@param command string
function M.pick(chat, command)
  local complete = require("agent_lsp.complete")
  local choices, prefix
  if command == "/file" then
    choices, prefix = complete.project_files(root_of(chat)), "@"
  else
    choices, prefix = {}, "#buffer:"
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.bo[b].buflisted and util.is_file_buffer(b) then
        table.insert(choices, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ":."))
      end
    end
  end
  vim.ui.select(choices, { prompt = command == "/file" and "Attach a file" or "Attach a buffer", kind = "agent_lsp.context" }, function(choice)
    if not choice or not vim.api.nvim_buf_is_valid(chat.buf) then
      return
    end
    local row = render.prompt_row(chat)
    local lines = vim.api.nvim_buf_get_lines(chat.buf, row + 1, -1, false)
    local last = #lines > 0 and lines[#lines] or ""
    local line = (last == "" and "" or (last .. " ")) .. prefix .. choice .. " "
    vim.api.nvim_buf_set_lines(chat.buf, row + math.max(#lines, 1), -1, false, { line })
  end)
end

--- Sends the text under the prompt line.
---@param chat agent_lsp.Chat
function M.send_input(chat)
  if chat.detached then
    -- The server stopped: start it again for this chat's project, then send from the reloaded chat.
    require("agent_lsp.recovery").revive(chat, M.send_input)
    return
  end
  local row = render.prompt_row(chat)
  local lines = vim.api.nvim_buf_get_lines(chat.buf, row + 1, -1, false)
  local text = vim.trim(table.concat(lines, "\n"))
  if text == "" then
    util.warn("type your prompt under the prompt line, then send it")
    return
  end
  if chat.busy then
    util.warn("the agent is still answering; cancel with " .. (require("agent_lsp.config").options.keymaps.chat.cancel or ":AgentCancel"))
    return
  end
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, { "" })
  M.prompt(chat, { text = text })
end

--- Sends the chat's last prompt again, with the same context (:AgentRetry).
---@param chat agent_lsp.Chat
---@return boolean sent
function M.retry(chat)
  if not chat.last_prompt then
    util.notify("nothing to retry: this chat has sent no prompt yet")
    return false
  end
  return M.prompt(chat, chat.last_prompt)
end

--- /new and /clear: a fresh session shown in this chat's window; /clear also closes this chat
--- (its session stays saved: :AgentSessions loads it again).
---@param chat agent_lsp.Chat
---@param close_old boolean
function M.fresh_session(chat, close_old)
  local chats = require("agent_lsp.chat")
  chats.new_session(chat.client_id, function(fresh)
    chats.show(fresh, true)
    if close_old and vim.api.nvim_buf_is_valid(chat.buf) then
      pcall(vim.api.nvim_buf_delete, chat.buf, { force = true })
    end
  end)
end

return M
