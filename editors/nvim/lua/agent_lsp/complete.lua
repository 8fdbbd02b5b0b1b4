---@mod agent_lsp.complete Completion in the chat's input: #words, @files and /commands.
---
--- A 'completefunc' (<C-x><C-u>, or <Tab> on such a word), usable by completion plugins
--- through `items()`. Project files come from git (tracked and untracked, .gitignore respected)
--- and, outside git, from a walk that skips hidden folders.

local context = require("agent_lsp.context")

local M = {}

--- Slash commands known without asking the server (the server's built-ins and the plugin's own).
M.BUILTIN_COMMANDS = {
  "/help", "/model", "/mode", "/usage", "/tools", "/logs", "/stop", "/undo", "/restore", "/checkpoints",
  "/compact", "/context", "/doctor", "/new", "/clear", "/file", "/buffer",
}

local MAX_FILES = 5000

--- The project's files relative to `root`, .gitignore respected.
---@param root string
---@return string[]
function M.project_files(root)
  local out = vim.fn.systemlist({ "git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard" })
  if vim.v.shell_error == 0 then
    return vim.list_slice(out, 1, MAX_FILES)
  end
  local files = {}
  for _, f in ipairs(vim.fn.globpath(root, "**/*", false, true)) do
    if vim.fn.isdirectory(f) == 0 then
      table.insert(files, f:sub(#root + 2))
    end
    if #files >= MAX_FILES then
      break
    end
  end
  return files
end

--- The commands the chat's server lists (agent/listCommands, fetched by the chat) and the
--- plugin's own; the built-ins until the server has answered.
---@param chat table|nil agent_lsp.Chat
---@return string[]
local function commands(chat)
  if not (chat and type(chat.commands) == "table") then
    return M.BUILTIN_COMMANDS
  end
  local list = {}
  for _, c in ipairs(chat.commands) do
    if type(c) == "table" and type(c.name) == "string" then
      table.insert(list, "/" .. c.name)
    end
  end
  vim.list_extend(list, { "/new", "/clear", "/file", "/buffer" })
  return list
end

local function root_of(chat)
  local client = chat and vim.lsp.get_client_by_id(chat.client_id)
  return client and client.config.root_dir or vim.fn.getcwd()
end

--- Completion candidates for the word before the cursor (`#bu`, `@src/ma`, `/he`).
---@param word string
---@param chat table|nil agent_lsp.Chat
---@return string[]
function M.items(word, chat)
  local out = {}
  local function add(candidate)
    if candidate:sub(1, #word) == word then
      table.insert(out, candidate)
    end
  end
  local sigil = word:sub(1, 1)
  if sigil == "#" then
    local names = vim.tbl_keys(context.HASH_WORDS)
    table.sort(names)
    for _, name in ipairs(names) do
      add("#" .. name)
    end
    if word:match("^#%a+:") then
      for _, b in ipairs(vim.api.nvim_list_bufs()) do
        if vim.bo[b].buflisted and vim.api.nvim_buf_get_name(b) ~= "" then
          add(word:match("^#%a+:") .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ":."))
        end
      end
    end
  elseif sigil == "@" then
    for _, f in ipairs(M.project_files(root_of(chat))) do
      add("@" .. f)
    end
  elseif sigil == "/" then
    for _, c in ipairs(commands(chat)) do
      add(c)
    end
  end
  return out
end

--- The start column (0-based) of the word being completed, from its #, @ or / sigil; negative
--- when the cursor is not on one.
---@param line string
---@param col integer 0-based byte column of the cursor
---@return integer
function M.word_start(line, col)
  local before = line:sub(1, col)
  local start = before:find("[#@][^%s]*$") or before:find("^%s*/[^%s]*$")
  if start and before:sub(start, start):match("%s") then
    start = before:find("/", start, true)
  end
  return start and start - 1 or -3
end

--- What to complete at a position of a chat buffer, for completion plugins: the 0-based column
--- where the word starts and its candidates; nil outside the input or off a #, @ or / word.
---@param buf integer
---@param row integer 1-based
---@param line string the line's text
---@param col integer 0-based byte column of the cursor
---@return {start: integer, candidates: string[]}|nil
function M.at(buf, row, line, col)
  local chat = require("agent_lsp.chat").by_buffer(buf)
  if not chat or row - 1 <= require("agent_lsp.render").prompt_row(chat) then
    return nil
  end
  local start = M.word_start(line, col)
  if start < 0 then
    return nil
  end
  return { start = start, candidates = M.items(line:sub(start + 1, col), chat) }
end

--- Candidates as LSP completion items replacing the word (both nvim-cmp and blink.cmp take them).
---@param found {start: integer, candidates: string[]}
---@param row integer 1-based
---@param col integer 0-based end of the word
---@return table[]
function M.lsp_items(found, row, col)
  local items = {}
  for _, candidate in ipairs(found.candidates) do
    local range = { start = { line = row - 1, character = found.start }, ["end"] = { line = row - 1, character = col } }
    -- kind 1 is Text, 17 File: what a completion menu shows beside it.
    table.insert(items, { label = candidate, filterText = candidate, kind = candidate:sub(1, 1) == "@" and 17 or 1, textEdit = { newText = candidate, range = range } })
  end
  return items
end

--- The 'completefunc' of the chat buffer.
---@param findstart integer
---@param base string
---@return integer|string[]
function M.completefunc(findstart, base)
  if findstart == 1 then
    local line = vim.api.nvim_get_current_line()
    return M.word_start(line, vim.api.nvim_win_get_cursor(0)[2])
  end
  local chat = require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf())
  return M.items(base, chat)
end

--- Sets the chat buffer's 'completefunc' (a Vimscript shim: 0.7 cannot name a Lua module there).
---@param buf integer
function M.attach(buf)
  if vim.fn.exists("*AgentLspComplete") == 0 then
    vim.cmd([[
      function! AgentLspComplete(findstart, base) abort
        return luaeval("require('agent_lsp.complete').completefunc(_A[1], _A[2])", [a:findstart, a:base])
      endfunction
    ]])
  end
  vim.bo[buf].completefunc = "AgentLspComplete"
end

--- Fetches the session's slash commands (built-in and MCP prompts) for completion. The server
--- starts the session's MCP servers first, so the answer may take a moment; it never blocks.
---@param chat agent_lsp.Chat
function M.fetch_commands(chat)
  require("agent_lsp.client").request(chat.client_id, "agent/listCommands", { sessionId = chat.session_id }, function(err, result)
    if not err and type(result) == "table" and type(result.commands) == "table" then
      chat.commands = result.commands
    end
  end)
end

local function command_usage(command)
  local words = { "/" .. command.name }
  for _, arg in ipairs(command.arguments or {}) do
    table.insert(words, arg.required and ("<" .. arg.name .. ">") or ("[" .. arg.name .. "]"))
  end
  return table.concat(words, " ")
end

--- 'omnifunc' of the chat buffer: completes a `/command` at the start of the input (<C-x><C-o>),
--- from the session's commands (agent/listCommands), with each one's usage and description.
---@param findstart integer
---@param base string
---@return integer|table
function M.complete_command(findstart, base)
  local chat = require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf())
  if findstart == 1 then
    local row, col = unpack(vim.api.nvim_win_get_cursor(0))
    local before = vim.api.nvim_get_current_line():sub(1, col)
    -- Only the first word of the input, under the prompt line, is a command.
    if not chat or row - 1 ~= require("agent_lsp.render").prompt_row(chat) + 1 or not before:match("^/[%w_%-]*$") then
      return -3
    end
    return 0
  end
  if not chat then
    return {}
  end
  if not chat.commands then
    M.fetch_commands(chat)
    return {}
  end
  local items = {}
  local prefix = base:gsub("^/", "")
  for _, command in ipairs(chat.commands) do
    if command.name:sub(1, #prefix) == prefix then
      table.insert(items, { word = "/" .. command.name, menu = command.description, info = command_usage(command), icase = 0 })
    end
  end
  return items
end

return M
