---@mod agent_lsp.cmp_source The chat input's #words, @files and /commands as an nvim-cmp source.
---
--- Registered as "agent_lsp" when nvim-cmp is installed (agent_lsp.complete_sources); the chat
--- buffer gets it as its source, so candidates show as you type. The candidates are those of
--- agent_lsp.complete, the same as <Tab> / <C-x><C-u>.

local complete = require("agent_lsp.complete")

local source = {}
source.__index = source

---@return table
function source.new()
  return setmetatable({}, source)
end

--- Only in chat buffers.
---@return boolean
function source:is_available()
  return require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf()) ~= nil
end

---@return string[]
function source:get_trigger_characters()
  return { "#", "@", "/" }
end

--- A word starts at its sigil and runs to the next blank (paths have / and .).
---@return string
function source:get_keyword_pattern()
  return [[\%([#@/]\S*\)]]
end

--- nvim-cmp's request: `params.context` has the buffer, the cursor (1-based row) and the text
--- before it.
---@param params table
---@param callback fun(response: table)
function source:complete(params, callback)
  local context = params.context
  local before = context.cursor_before_line
  local found = complete.at(context.bufnr, context.cursor.row, before, #before)
  if not found then
    callback({ items = {}, isIncomplete = false })
    return
  end
  callback({ items = complete.lsp_items(found, context.cursor.row, #before), isIncomplete = false })
end

return source
