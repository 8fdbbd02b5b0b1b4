---@mod agent_lsp.render_text The model's words in a chat buffer: streamed text and thoughts,
--- an inline plan, and the one-line notes about a turn (usage, compaction, errors).

local blocks = require("agent_lsp.render_block")

local M = {}

--- Keeps the text of the model's latest message: it explains the tool calls that follow it, and
--- the diff review shows it on top. Text after a tool call starts the next message's.
---@param chat table
---@param text string
function M.remember_explanation(chat, text)
  if chat.explanation_done then
    chat.explanation, chat.explanation_done = "", false
  end
  chat.explanation = (chat.explanation or "") .. text
end

--- Appends streamed text; `prefix` starts every new line ("> " for thoughts).
---@param chat table
---@param kind "text"|"thought"
---@param text string
---@param prefix string
function M.stream(chat, kind, text, prefix)
  blocks.heading(chat)
  if chat.stream_kind ~= kind then
    chat.stream_kind = kind
    blocks.block(chat, { prefix })
  end
  local cur, row = blocks.last_line(chat)
  local pieces = vim.split(text, "\n", { plain = true })
  local lines = { (cur or "") .. pieces[1] }
  for i = 2, #pieces do
    table.insert(lines, prefix .. pieces[i])
  end
  blocks.rewrite(chat.buf, row, row + 1, lines)
end

--- A plan the model proposes (make_plan), replacing the turn's previous plan block.
---@param chat table
---@param u table plan update
function M.plan(chat, u)
  blocks.heading(chat)
  chat.stream_kind = nil
  local lines = { "**Plan**" }
  for _, e in ipairs(u.entries or {}) do
    local box = e.status == "completed" and "[x]" or (e.status == "in_progress" and "[-]" or "[ ]")
    table.insert(lines, string.format("- %s %s", box, (e.content or ""):gsub("\n", " ")))
  end
  chat.plan = blocks.replace(chat, chat.plan, lines, function()
    return blocks.block(chat, lines)
  end)
end

--- A count with thousands separators ("179,000").
---@param n any
---@return string
function M.thousands(n)
  local s = tostring(math.floor(tonumber(n) or 0))
  return (s:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

--- One line: tokens in/out/cached and the cost when known.
---@param u table usage update
---@return string
function M.usage_line(u)
  local parts = {
    M.thousands(u.inputTokens) .. " in",
    M.thousands(u.outputTokens) .. " out",
    M.thousands(u.cachedTokens) .. " cached",
  }
  if type(u.cost) == "number" then
    local cost = string.format("$%.4f", u.cost)
    if type(u.sessionCost) == "number" then
      cost = cost .. string.format(" (session $%.4f)", u.sessionCost)
    end
    table.insert(parts, cost)
  end
  return "_Usage: " .. table.concat(parts, " · ") .. "_"
end

--- A marker where the older history left the model's context (the server's log keeps it).
---@param u table compaction update
---@return string
function M.compaction_line(u)
  return string.format("_── context compacted (checkpoint %s, %s): about %s → %s tokens; messages 1-%s archived ──_", tostring(u.n), tostring(u.trigger), M.thousands(u.tokensBefore), M.thousands(u.tokensAfter), tostring(u.through))
end

--- What to do about a turn's error, when its text says what kind it is: a refused key (the
--- server names where the key came from) or a server that could not be reached (it names the
--- base URL).
---@param message string
---@return string hint starting with a space, or ""
function M.error_hint(message)
  local lower = message:lower()
  -- Unreachable first: its base URL may hold a port such as 40353, which is no HTTP 403.
  if lower:find("could not reach", 1, true) or lower:find("the connection to", 1, true) then
    return " — is the server running at that base URL? :AgentDoctor live checks it"
  end
  local status = lower:find("%f[%d]40[13]%f[%D]")
  if lower:find("the key came from", 1, true) or lower:find("no api key", 1, true) or status then
    return " — check the key: :checkhealth agent_lsp (:AgentDoctor live makes one call with it)"
  end
  return ""
end

return M
