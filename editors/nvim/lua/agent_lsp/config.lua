---@mod agent_lsp.config Options of setup(), their defaults and validation.

local M = {}

---@class agent_lsp.ChatKeymaps
---@field send string|false      send the text under the prompt line (normal mode)
---@field send_insert string|false  send it from insert mode too (and normal mode)
---@field retry string|false     send the last prompt again (:AgentRetry)
---@field complete string|false  insert mode, on a #word, @path or /command: complete it
---@field history_prev string|false  older prompt (on the input's first line; else moves up)
---@field history_next string|false  newer prompt (on the input's last line; else moves down)
---@field next_turn string|false  go to the next "## You" header
---@field prev_turn string|false  go to the previous one
---@field cancel string|false    cancel the running turn (normal and insert mode)
---@field close string|false     close the chat window

---@class agent_lsp.ReviewKeymaps
---@field accept_all string|false     take the whole proposal
---@field accept_always string|false  take it, and do not ask again for this kind of change
---@field reject_all string|false     refuse the whole proposal
---@field reject_reason string|false  refuse it with a line of text for the agent
---@field accept_hunk string|false    take the hunk under the cursor into the result
---@field accept_file string|false    take the current file whole and go to the next one
---@field finish string|false         finish the file with the hunks taken so far
---@field next_file string|false      go to the next file of the change set
---@field prev_file string|false      go to the previous file of the change set
---@field quit string|false           refuse and close the review

---@class agent_lsp.GlobalKeymaps
---@field chat string|false     open the chat (normal mode)
---@field actions string|false  the agent's code actions for the line or selection
---@field ask string|false      ask about the selection (visual mode)

---@class agent_lsp.Keymaps
---@field chat agent_lsp.ChatKeymaps
---@field review agent_lsp.ReviewKeymaps
---@field global agent_lsp.GlobalKeymaps

---@class agent_lsp.ChatConfig
---@field layout "vsplit"|"split"|"float"|nil  how the chat opens; nil: from `position`
---@field position "right"|"left"|"top"|"bottom"  which side a split opens on
---@field size number  width (vsplit) or height (split): a share of the editor below 1, else a count
---@field completion_sources boolean  register the nvim-cmp / blink.cmp sources when those plugins are present

---@class agent_lsp.Config
---@field cmd string[]             command that starts the server
---@field mode string|nil          safety mode of new sessions; nil: the server's configured default
---@field model string|nil         model of new sessions ("provider/model-id"); nil: the server's default
---@field init_options table|nil   initializationOptions: server settings, same keys as config.toml
---@field cmd_env table|nil        extra environment variables for the server process
---@field root_markers string[]    files or folders that mark a project root
---@field autostart boolean        attach the server to file buffers as they are opened
---@field filetypes string[]|nil   with autostart, only these filetypes (nil: every file buffer)
---@field live boolean            :checkhealth makes the live checks (one model call, local servers)
---@field chat agent_lsp.ChatConfig
---@field keymaps agent_lsp.Keymaps

--- Every option setup() takes (the documented ones, see :help agent_lsp-options).
M.NAMES = { "cmd", "mode", "model", "init_options", "cmd_env", "root_markers", "autostart", "filetypes", "live", "chat", "keymaps" }

--- The safety modes the server knows, least to most permissive.
M.MODES = { "read_only", "plan", "ask", "auto", "full_access" }

---@type agent_lsp.Config
M.defaults = {
  cmd = { "agent-lsp", "--stdio" },
  mode = nil,
  model = nil,
  init_options = nil,
  cmd_env = nil,
  root_markers = { ".agent-lsp", ".git", ".hg", ".svn" },
  autostart = true,
  filetypes = nil,
  live = false,
  chat = { layout = nil, position = "right", size = 0.4, completion_sources = true },
  keymaps = {
    chat = { send = "<CR>", send_insert = "<C-s>", cancel = "<C-c>", close = "q", next_turn = "]]", prev_turn = "[[",
      retry = "<C-r>", complete = "<Tab>", history_prev = "<Up>", history_next = "<Down>", edit_last = "<C-e>",
      undo = "u", redo = "<C-r>" },
    review = {
      accept_all = "ga",
      accept_always = "gA",
      reject_all = "gr",
      reject_reason = "gR",
      accept_hunk = "gh",
      accept_file = "gy",
      finish = "<CR>",
      next_file = "]f",
      prev_file = "[f",
      quit = "q",
    },
    global = { chat = false, actions = false, ask = false },
  },
}

---@type agent_lsp.Config
M.options = vim.deepcopy(M.defaults)

local function is_mode(v)
  return v == nil or vim.tbl_contains(M.MODES, v)
end

--- Merges user options over the defaults and validates them.
---@param opts table|nil
---@return agent_lsp.Config|nil config
---@return string|nil error
function M.resolve(opts)
  opts = opts or {}
  if type(opts) ~= "table" then
    return nil, "setup() takes one table of options"
  end
  for key in pairs(opts) do
    if not vim.tbl_contains(M.NAMES, key) then
      return nil, string.format("unknown option %q (options: %s)", tostring(key), table.concat(M.NAMES, ", "))
    end
  end
  local merged = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts)
  -- Lists replace the default list instead of merging index by index.
  for _, key in ipairs({ "cmd", "root_markers", "filetypes" }) do
    if opts[key] ~= nil then
      merged[key] = opts[key]
    end
  end
  -- A hand-written check: vim.validate's table form is deprecated from 0.11, its new form
  -- does not exist before 0.11.
  local types = {
    { "cmd", "table" },
    { "model", "string", true },
    { "init_options", "table", true },
    { "cmd_env", "table", true },
    { "root_markers", "table" },
    { "autostart", "boolean" },
    { "live", "boolean" },
    { "filetypes", "table", true },
    { "chat", "table" },
    { "keymaps", "table" },
  }
  for _, spec in ipairs(types) do
    local name, want, optional = spec[1], spec[2], spec[3]
    local value = merged[name]
    if not (value == nil and optional) and type(value) ~= want then
      return nil, string.format("%s: expected %s, got %s", name, want, type(value))
    end
  end
  if not is_mode(merged.mode) then
    return nil, "mode: expected one of " .. table.concat(M.MODES, ", ")
  end
  if #merged.cmd == 0 or type(merged.cmd[1]) ~= "string" then
    return nil, "cmd: expected a list of strings, the program first"
  end
  if not vim.tbl_contains({ "right", "left", "top", "bottom" }, merged.chat.position) then
    return nil, "chat.position: expected right, left, top or bottom"
  end
  if merged.chat.layout ~= nil and not vim.tbl_contains({ "vsplit", "split", "float" }, merged.chat.layout) then
    return nil, "chat.layout: expected vsplit, split or float"
  end
  if type(merged.chat.completion_sources) ~= "boolean" then
    return nil, "chat.completion_sources: expected true or false"
  end
  if type(merged.chat.size) ~= "number" or merged.chat.size <= 0 then
    return nil, "chat.size: expected a number above 0 (below 1: a share of the editor)"
  end
  return merged, nil
end

return M
