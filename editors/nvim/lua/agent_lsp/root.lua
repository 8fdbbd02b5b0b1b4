---@mod agent_lsp.root The project root of a buffer: which agent-lsp server it belongs to.
---
--- In order: the nearest folder with a version-control marker (`.git`, `.hg`, `.svn` of
--- |agent_lsp-option-root_markers|), the root of another language server whose root holds the
--- file, the nearest folder with `.agent-lsp`, the current directory. The home folder and `/`
--- are never a root: a stray `.agent-lsp` there (left by a server started in them) would make
--- every file on the machine one project, and the server refuses them anyway.

local util = require("agent_lsp.util")

local M = {}

--- The marker of agent-lsp's own state folder: weaker than a repository's.
M.STATE_MARKER = ".agent-lsp"

local function normalize(dir)
  return (vim.fn.fnamemodify(dir, ":p"):gsub("(.)/$", "%1"))
end

--- Whether `dir` may be a project root (not the home folder, not `/`).
---@param dir string
---@return boolean
function M.usable(dir)
  local d = normalize(dir)
  if d == "/" or d:match("^%a:[/\\]?$") then
    return false
  end
  local home = vim.env.HOME and vim.env.HOME ~= "" and normalize(vim.env.HOME) or nil
  return home == nil or (d ~= home and d ~= vim.fn.resolve(home))
end

--- The nearest usable ancestor of `start` (inclusive) holding one of `markers`, else nil.
---@param start string directory
---@param markers string[]
---@return string|nil
function M.find(start, markers)
  if #markers == 0 then
    return nil
  end
  local dir = normalize(start)
  while dir and dir ~= "" do
    if M.usable(dir) then
      for _, marker in ipairs(markers) do
        if util.uv.fs_stat(dir .. "/" .. marker) then
          return dir
        end
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      break
    end
    dir = parent
  end
  return nil
end

local function all_clients()
  return (vim.lsp.get_clients or vim.lsp.get_active_clients)()
end

--- The deepest usable root of another language server that holds `file`, else nil.
---@param file string absolute path
---@param own_name string the name of agent-lsp's clients
---@return string|nil
function M.language_server_root(file, own_name)
  local best
  for _, c in ipairs(all_clients()) do
    local root = c.name ~= own_name and c.config and c.config.root_dir
    if type(root) == "string" and root ~= "" then
      root = normalize(root)
      local holds = file:sub(1, #root + 1) == root .. "/"
      if holds and M.usable(root) and (not best or #root > #best) then
        best = root
      end
    end
  end
  return best
end

--- The project root of buffer `bufnr`.
---@param opts {bufnr: integer, markers: string[], own_name: string}
---@return string
function M.for_buffer(opts)
  local dir = util.buf_dir(opts.bufnr)
  local repo_markers = vim.tbl_filter(function(m)
    return m ~= M.STATE_MARKER
  end, opts.markers)
  local state_markers = vim.tbl_contains(opts.markers, M.STATE_MARKER) and { M.STATE_MARKER } or {}
  local name = vim.api.nvim_buf_get_name(opts.bufnr)
  local file = name ~= "" and vim.fn.fnamemodify(name, ":p") or nil
  return M.find(dir, repo_markers)
    or (file and M.language_server_root(file, opts.own_name))
    or M.find(dir, state_markers)
    or vim.fn.getcwd()
end

return M
