---@mod agent_lsp.session_setting One setting of the chat's session (its mode or its model),
--- changed on the server; without a chat, kept for the next session.
local M = {}

local util = require("agent_lsp.util")

local METHODS = { mode = "agent/setMode", model = "agent/setModel" }

--- Sets `key` ("mode" or "model") to `value` for the chat's session, or for the next session.
---@param id integer|nil client id
---@param chat table|nil the current chat
---@param key "mode"|"model"
---@param value string
function M.set(id, chat, key, value)
  if not chat then
    require("agent_lsp.config").options[key] = value
    util.notify(key .. " " .. value .. " for the next session")
    return
  end
  require("agent_lsp.client").request(id, METHODS[key], { sessionId = chat.session_id, [key] = value }, function(err, result)
    if err then
      util.error("setting the " .. key .. " failed: " .. util.error_text(err))
      return
    end
    chat[key] = result and result[key] or value
    require("agent_lsp.render").note(chat, "_" .. key .. ": " .. chat[key] .. "_")
    util.notify(key .. ": " .. chat[key])
  end)
end

return M
