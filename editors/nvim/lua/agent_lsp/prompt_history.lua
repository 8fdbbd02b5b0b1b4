---@mod agent_lsp.prompt_history The prompts you sent, walked with <Up>/<Down> in the prompt area.
---
--- One list for every chat of this Neovim (a new session can recall the last one's prompts),
--- oldest first. Walking up from a half-typed prompt keeps it as a draft that <Down> past the
--- newest entry brings back.

local render = require("agent_lsp.render")

local M = {}

local MAX_ENTRIES = 200

---@type string[]
local entries = {}

--- Remembers a sent prompt (a repeat of the newest is kept once).
---@param text string
function M.push(text)
  if text == "" or entries[#entries] == text then
    return
  end
  table.insert(entries, text)
  if #entries > MAX_ENTRIES then
    table.remove(entries, 1)
  end
end

--- The input under the prompt line: its first and last 0-based rows and its text.
local function input(chat)
  local first = render.prompt_row(chat) + 1
  local lines = vim.api.nvim_buf_get_lines(chat.buf, first, -1, false)
  return first, first + math.max(#lines, 1) - 1, table.concat(lines, "\n")
end

--- Replaces the input under the prompt line with `text`; the cursor goes to its end.
---@param chat table agent_lsp.Chat
---@param text string
function M.set_input(chat, text)
  local first = render.prompt_row(chat) + 1
  local lines = vim.split(text, "\n", { plain = true })
  vim.api.nvim_buf_set_lines(chat.buf, first, -1, false, lines)
  local win = vim.fn.bufwinid(chat.buf)
  if win ~= -1 then
    vim.api.nvim_win_set_cursor(win, { first + #lines, #lines[#lines] })
  end
end

--- Moves through the history (-1 older, 1 newer) when the cursor is on the input's first line
--- (older) or last line (newer); returns false when the key should move the cursor instead.
---@param chat table agent_lsp.Chat
---@param delta integer
---@return boolean handled
function M.walk(chat, delta)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local first, last, text = input(chat)
  if (delta < 0 and row ~= first) or (delta > 0 and row ~= last) or row < first then
    return false
  end
  local index = chat.history_index
  if delta < 0 then
    if #entries == 0 or index == 1 then
      return true
    end
    if not index then
      chat.history_draft = text
      index = #entries + 1
    end
    index = index - 1
  else
    if not index then
      return false
    end
    index = index + 1
  end
  if index > #entries then
    chat.history_index = nil
    M.set_input(chat, chat.history_draft or "")
  else
    chat.history_index = index
    M.set_input(chat, entries[index])
  end
  return true
end

--- Forgets where a chat was in the history (after sending).
---@param chat table agent_lsp.Chat
function M.reset(chat)
  chat.history_index, chat.history_draft = nil, nil
end

return M
