---@mod agent_lsp.model :AgentModel: the session's model, switched with agent/setModel and
--- completed from the models the server can call (agent/listModels).
local M = {}

local util = require("agent_lsp.util")

--- How long completion waits for the server's model list.
local LIST_TIMEOUT_MS = 2000

--- The current client id and its chat (nil when none is open).
local function current()
  local id = require("agent_lsp.client").current()
  return id, id and require("agent_lsp.chat").current(id)
end

--- Every model id of an agent/listModels answer, in its order.
---@param listed table|nil
---@return string[]
local function model_ids(listed)
  local ids = {}
  for _, p in ipairs((listed and listed.providers) or {}) do
    for _, m in ipairs(p.models or {}) do
      table.insert(ids, m)
    end
  end
  return ids
end

--- The models for completion: asked of the server with the current chat's session, waiting at
--- most LIST_TIMEOUT_MS (the command line cannot wait on a callback); none without a chat.
---@param arglead string
---@return string[]
function M.complete(arglead)
  local id, chat = current()
  local client = id and require("agent_lsp.client").get(id)
  if not (client and chat) then
    return {}
  end
  local ids = model_ids(util.request_sync(client, "agent/listModels", { sessionId = chat.session_id }, LIST_TIMEOUT_MS))
  return vim.tbl_filter(function(m)
    return vim.startswith(m, arglead or "")
  end, ids)
end

--- Switches the current chat's session to `model` (or, without a chat, the next session's).
local function switch(id, chat, model)
  require("agent_lsp.session_setting").set(id, chat, "model", model)
end

--- Offers the models with vim.ui.select, the current one marked.
local function pick(id, chat)
  if not chat then
    util.error("open a chat first (:AgentChat): the models come from its session")
    return
  end
  require("agent_lsp.client").request(id, "agent/listModels", { sessionId = chat.session_id }, function(err, listed)
    if err then
      util.error("listing the models failed: " .. util.error_text(err))
      return
    end
    vim.ui.select(model_ids(listed), {
      prompt = "Model (now: " .. tostring(listed.model) .. ")",
      kind = "agent_lsp.model",
      format_item = function(m)
        return m == listed.model and (m .. "  (current)") or m
      end,
    }, function(choice)
      if choice and choice ~= listed.model then
        switch(id, chat, choice)
      end
    end)
  end)
end

--- :AgentModel [model]: switches the model; without one, offers the choices.
---@param opts {model: string|nil}|nil
function M.set_model(opts)
  local model = opts and opts.model
  local id, chat = current()
  if model == nil or model == "" then
    pick(id, chat)
  else
    switch(id, chat, model)
  end
end

return M
