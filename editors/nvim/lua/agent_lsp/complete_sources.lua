---@mod agent_lsp.complete_sources nvim-cmp and blink.cmp sources, when those plugins are present.
---
--- Neither is required: each is looked up with pcall(require) when a chat opens, registered once,
--- and given to the chat buffer, so #words, @files and /commands complete as you type. Without
--- them the chat's completefunc (<Tab>, <C-x><C-u>) and omnifunc (<C-x><C-o>) do the same.

local util = require("agent_lsp.util")

local M = {}

M.NAME = "agent_lsp"

local registered = { cmp = false, blink = false }

local function register_cmp(cmp, buf)
  if not registered.cmp then
    cmp.register_source(M.NAME, require("agent_lsp.cmp_source").new())
    registered.cmp = true
  end
  -- The chat's own sources: candidates as you type there, nothing changed elsewhere.
  vim.api.nvim_buf_call(buf, function()
    cmp.setup.buffer({ sources = { { name = M.NAME } } })
  end)
end

local function register_blink(blink, buf)
  if not registered.blink then
    blink.add_source_provider(M.NAME, { name = "agent-lsp", module = "agent_lsp.blink_source" })
    -- The source enables itself in chat buffers only (their filetype is markdown).
    blink.add_filetype_source(vim.bo[buf].filetype, M.NAME)
    registered.blink = true
  end
end

--- Registers the sources of the completion plugins that are installed and gives them to a chat
--- buffer. Returns which were found.
---@param buf integer the chat buffer
---@return {cmp: boolean, blink: boolean}
function M.attach(buf)
  local found = { cmp = false, blink = false }
  local has_cmp, cmp = pcall(require, "cmp")
  if has_cmp and type(cmp) == "table" and cmp.register_source then
    found.cmp = (util.try("registering the nvim-cmp source", register_cmp, cmp, buf))
  end
  local has_blink, blink = pcall(require, "blink.cmp")
  if has_blink and type(blink) == "table" and blink.add_source_provider then
    found.blink = (util.try("registering the blink.cmp source", register_blink, blink, buf))
  end
  return found
end

return M
