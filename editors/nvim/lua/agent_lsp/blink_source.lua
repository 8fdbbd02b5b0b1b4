---@mod agent_lsp.blink_source The chat input's #words, @files and /commands as a blink.cmp source.
---
--- Added as provider "agent_lsp" (module `agent_lsp.blink_source`) when blink.cmp is installed
--- (agent_lsp.complete_sources). The candidates are those of agent_lsp.complete.

local complete = require("agent_lsp.complete")

-- The nvim-cmp source's constructor, chat-buffer check and trigger characters serve here too.
local cmp_source = require("agent_lsp.cmp_source")
local source = setmetatable({}, { __index = cmp_source })
source.__index = source

---@return table
function source.new()
  return setmetatable({}, source)
end

--- Only in chat buffers (blink.cmp's name for it).
source.enabled = cmp_source.is_available

--- blink.cmp's request: `ctx` has the buffer, the cursor ({1-based row, 0-based col}) and the line.
---@param ctx table
---@param callback fun(response: table)
function source:get_completions(ctx, callback)
  local row, col = ctx.cursor[1], ctx.cursor[2]
  local found = complete.at(ctx.bufnr, row, ctx.line, col)
  local items = found and complete.lsp_items(found, row, col) or {}
  -- Incomplete: the next character can change the folder of an @path, so ask again.
  callback({ items = items, is_incomplete_forward = found ~= nil, is_incomplete_backward = found ~= nil })
end

return source
