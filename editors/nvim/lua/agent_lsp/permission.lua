---@mod agent_lsp.permission agent/requestPermission and agent/askUser.
---
--- A request that proposes file changes (`files`) opens the diff review (agent_lsp.diff); any
--- other asks through vim.ui.select with the server's options (Yes / Yes, don't ask again / No).
--- Questions use vim.ui.select for choices and vim.ui.input for free text.

local reply = require("agent_lsp.reply")
local util = require("agent_lsp.util")

local M = {}

local OTHER = "Something else…"

--- The extra choice that refuses with the user's words for the model.
M.REJECT_WITH_REASON = "No, and tell the agent…"

local DEFAULT_OPTIONS = {
  { optionId = "allow_once", name = "Yes" },
  { optionId = "allow_always", name = "Yes, don't ask again" },
  { optionId = "reject", name = "No" },
}

---@type table<string, table<table, fun()>> "client:session" -> open reviews -> close function
local open_reviews = {}

local function key(client_id, session_id)
  return tostring(client_id) .. ":" .. tostring(session_id)
end

--- Registers an open review so a cancelled turn can close it; returns the unregister function.
---@param client_id integer
---@param session_id string
---@param close fun()
---@return fun()
function M.track(client_id, session_id, close)
  local k = key(client_id, session_id)
  open_reviews[k] = open_reviews[k] or {}
  local token = {}
  open_reviews[k][token] = close
  return function()
    if open_reviews[k] then
      open_reviews[k][token] = nil
    end
  end
end

--- Closes the reviews of a session (its turn ended or was cancelled; the server withdrew them).
---@param client_id integer
---@param session_id string
function M.close_session(client_id, session_id)
  local reviews = open_reviews[key(client_id, session_id)]
  open_reviews[key(client_id, session_id)] = nil
  for _, close in pairs(reviews or {}) do
    pcall(close)
  end
end

local function options_of(params)
  local opts = {}
  for _, o in ipairs(type(params.options) == "table" and params.options or {}) do
    if type(o) == "table" and type(o.optionId) == "string" then
      table.insert(opts, { optionId = o.optionId, name = o.name or o.optionId })
    end
  end
  return #opts > 0 and opts or DEFAULT_OPTIONS
end

--- The approval's title: the server's summary, with the tool named as the model called it
--- (`bash: ls` rather than `execute_command: ls`) when it called a provider-native tool.
---@param params table agent/requestPermission params
---@return string
local function title(params)
  local call = type(params.toolCall) == "table" and params.toolCall or {}
  local summary = params.summary
  if type(summary) ~= "string" or summary == "" then
    summary = call.title or call.name or "a tool call"
  end
  local model, name = call.modelName, call.name
  if type(model) == "string" and model ~= "" and model ~= name then
    if type(name) == "string" and summary:sub(1, #name) == name then
      summary = model .. summary:sub(#name + 1)
    else
      summary = model .. ": " .. summary
    end
  end
  return "agent-lsp wants to: " .. summary:gsub("\n", " ")
end
M.title = title

--- The answer to a prompt dismissed without a choice (<Esc>, `q`, an empty line, a key that is
--- no choice: often a key meant for the buffer, typed as the prompt opened). It is no answer
--- (null), so the server tells the model none came and never that the user declined.
local DISMISSED = vim.NIL

--- Asks with a blocking dialog: for Neovim builds whose handlers cannot answer later.
local function ask_blocking(params)
  local options = options_of(params)
  local lines = { title(params) }
  for i, o in ipairs(options) do
    table.insert(lines, string.format("%d. %s", i, o.name))
  end
  local choice = vim.fn.inputlist(lines)
  local picked = options[choice]
  return picked and { optionId = picked.optionId } or DISMISSED
end

--- Asks for a line of text and refuses with it; an empty or cancelled line still refuses.
---@param done fun(result: table)
function M.reject_with_reason(done)
  vim.ui.input({ prompt = "Tell the agent why (or what to do instead): " }, function(text)
    if text and vim.trim(text) ~= "" then
      done({ optionId = "reject", reason = vim.trim(text) })
    else
      done({ optionId = "reject" })
    end
  end)
end

local function select_option(params, done)
  local options = options_of(params)
  for _, o in ipairs(options) do
    if o.optionId == "reject" then
      table.insert(options, { optionId = "reject", name = M.REJECT_WITH_REASON, with_reason = true })
      break
    end
  end
  vim.ui.select(options, {
    prompt = title(params),
    kind = "agent_lsp.permission",
    format_item = function(o)
      return o.name
    end,
  }, function(choice)
    if choice and choice.with_reason then
      M.reject_with_reason(done)
      return
    end
    done(choice and { optionId = choice.optionId } or DISMISSED)
  end)
end

--- Shows in the session's chat (and in `status()`) that an approval waits, until `done` runs.
---@param client_id integer
---@param params table the request
---@param done fun(result: table)
---@return fun(result: table) done that also clears the mark
function M.mark_pending(client_id, params, done)
  local chat = require("agent_lsp.chat").get(client_id, params.sessionId)
  if not chat then
    return done
  end
  local status = require("agent_lsp.status")
  local what = title(params):gsub("^agent%-lsp wants to: ", "")
  chat.pending_approval = what
  status.refresh(chat)
  local call_id = type(params.toolCall) == "table" and params.toolCall.id or nil
  return function(result)
    if type(result) == "table" and result.optionId == "reject" and call_id then
      -- The call will fail because of this answer: the chat shows it as declined, not failed.
      chat.declined = chat.declined or {}
      chat.declined[call_id] = true
    end
    chat.pending_approval = nil
    status.refresh(chat)
    done(result)
  end
end

--- The answer with the request's id in it: the server takes an answer only for the request it
--- names (an answer meant for an earlier prompt is refused, never applied to this one).
---@param params table the request
---@param result any the answer (a table, or vim.NIL for none)
---@return any
local function bound(params, result)
  if type(result) == "table" and params.requestId ~= nil then
    result.requestId = params.requestId
  end
  return result
end

--- `answer` that sends its result bound to the request.
local function binding(params, answer)
  return function(result)
    answer(bound(params, result))
  end
end

--- Handler of agent/requestPermission.
---@param params table {sessionId, requestId, toolCall, summary, diff?, files?, options}
---@param ctx table handler context (client_id)
---@return any result for the rpc layer
function M.request_permission(params, ctx)
  if type(params) ~= "table" then
    return { optionId = "reject" }
  end
  if not reply.can_defer() then
    return bound(params, ask_blocking(params))
  end
  return reply.async(function(answer)
    local done = M.mark_pending(ctx.client_id, params, binding(params, answer))
    local files = params.files
    if type(files) == "table" and #files > 0 then
      local ok, err = pcall(require("agent_lsp.diff").review, { params = params, client_id = ctx.client_id, done = done })
      if not ok then
        util.error("the diff review failed to open: " .. tostring(err))
        select_option(params, done)
      end
    else
      select_option(params, done)
    end
  end)
end

local function ask_text(question, done)
  vim.ui.input({ prompt = question .. " " }, function(text)
    done(text and { answer = text } or vim.NIL)
  end)
end

--- Handler of agent/askUser.
---@param params table {sessionId, requestId, question, choices, allowFreeText}
---@return any result for the rpc layer
function M.ask_user(params, _)
  if type(params) ~= "table" then
    return vim.NIL
  end
  local question = "agent-lsp asks: " .. tostring(params.question or ""):gsub("\n", " ")
  local choices = type(params.choices) == "table" and params.choices or {}
  local function start(done)
    if #choices == 0 then
      ask_text(question, done)
      return
    end
    local items = vim.deepcopy(choices)
    if params.allowFreeText ~= false then
      table.insert(items, OTHER)
    end
    vim.ui.select(items, { prompt = question, kind = "agent_lsp.ask" }, function(choice)
      if choice == OTHER then
        ask_text(question, done)
      elseif choice then
        done({ answer = choice })
      else
        done(vim.NIL)
      end
    end)
  end
  if not reply.can_defer() then
    local answer
    start(function(v)
      answer = v
    end)
    return bound(params, answer or vim.NIL)
  end
  return reply.async(function(answer)
    start(binding(params, answer))
  end)
end

return M
