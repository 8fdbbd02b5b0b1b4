---@mod agent_lsp.review_text Text helpers of the diff review: lines and line ends, file types.

local util = require("agent_lsp.util")

local M = {}

--- Text as lines without "\r" line ends, and how to put them back together.
---@param text string
---@return string[] lines
---@return {crlf: boolean, eol: boolean} shape
function M.to_lines(text)
  local crlf = text:find("\r\n", 1, true) ~= nil
  if crlf then
    text = text:gsub("\r\n", "\n")
  end
  local lines, eol = util.split_lines(text)
  return lines, { crlf = crlf, eol = eol }
end

--- Lines joined back into text of the given shape.
---@param lines string[]
---@param shape {crlf: boolean, eol: boolean}
---@return string
function M.from_lines(lines, shape)
  local nl = shape.crlf and "\r\n" or "\n"
  return table.concat(lines, nl) .. (shape.eol and nl or "")
end

---@param a string[]
---@param b string[]
---@return boolean
function M.lines_equal(a, b)
  if #a ~= #b then
    return false
  end
  for i = 1, #a do
    if a[i] ~= b[i] then
      return false
    end
  end
  return true
end

--- The file name of a URI (the URI itself when it is not a file URI).
---@param uri string
---@return string
function M.file_path(uri)
  local ok, path = pcall(vim.uri_to_fname, uri)
  return ok and path or uri
end

--- The filetype of a path: its open buffer's, else detected from the name (0.8+).
---@param path string
---@return string|nil
function M.filetype_of(path)
  local existing = vim.fn.bufnr(path)
  if existing > 0 and vim.bo[existing].filetype ~= "" then
    return vim.bo[existing].filetype
  end
  -- vim.filetype.match takes a table from 0.8 on (0.7's sets the buffer's filetype instead).
  if util.has("0.8") and vim.filetype and vim.filetype.match then
    local ok, ft = pcall(vim.filetype.match, { filename = path })
    return ok and ft or nil
  end
  return nil
end

return M
