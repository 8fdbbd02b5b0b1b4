---@mod agent_lsp.save agent/saveDocuments: write the buffers the server names, exactly those.
---
--- Commands the agent runs read the disk, while its edits stay in your buffers until written;
--- so before a command the server asks to save the buffers it changed. A buffer that is not
--- loaded is not created for this: it has nothing unsaved, and is reported as not saved.

local util = require("agent_lsp.util")

local M = {}

---@class agent_lsp.SaveFailure
---@field uri string
---@field reason string

--- Writes one buffer (`:update`: only when modified), in its own context.
---@param bufnr integer
---@return boolean ok
---@return string|nil err
local function write(bufnr)
  local ok, err = pcall(vim.api.nvim_buf_call, bufnr, function()
    vim.cmd("update")
  end)
  if not ok then
    return false, tostring(err)
  end
  if vim.bo[bufnr].modified then
    return false, "the buffer is still modified after :update"
  end
  return true
end

--- Handler of agent/saveDocuments: saves each listed buffer and says which it could not.
---@param params {uris: string[]}|nil
---@return {saved: string[], failed: agent_lsp.SaveFailure[]|nil}
function M.save_documents(params)
  local saved, failed = {}, {}
  local uris = type(params) == "table" and type(params.uris) == "table" and params.uris or {}
  for _, uri in ipairs(uris) do
    local bufnr = type(uri) == "string" and util.loaded_buffer(uri) or nil
    if not bufnr then
      table.insert(failed, { uri = tostring(uri), reason = "not open in Neovim" })
    else
      local ok, err = write(bufnr)
      if ok then
        table.insert(saved, uri)
      else
        table.insert(failed, { uri = uri, reason = err })
      end
    end
  end
  return { saved = saved, failed = #failed > 0 and failed or nil }
end

return M
