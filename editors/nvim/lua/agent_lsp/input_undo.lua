---@mod agent_lsp.input_undo Undo and redo of what you type under the prompt line, and of nothing else.
---
--- The transcript streams into the same buffer as the input. Vim keeps one undo tree per buffer,
--- so `u` would take back streamed text, or a streamed line would scramble the undo of your typing;
--- the chat therefore runs with 'undolevels' -1 and keeps its own list of the input's states
--- instead: one step per insert (as Vim counts them) and per normal-mode change, recorded from the
--- input's text alone, so streamed lines above it are never part of a step. It works the same on
--- Neovim 0.7 and 0.10. `u` and the redo key walk that list while the cursor is in the input.

local render = require("agent_lsp.render")

local M = {}

--- Steps kept per chat.
M.MAX_STEPS = 200

local function input_text(chat)
  local first = render.prompt_row(chat) + 1
  return table.concat(vim.api.nvim_buf_get_lines(chat.buf, first, -1, false), "\n")
end

--- Records the input's text as a step when it changed since the last one.
---@param chat agent_lsp.Chat
function M.record(chat)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  local undo = chat.input_undo
  local text = input_text(chat)
  if undo.states[undo.at] == text then
    return
  end
  -- A change after an undo drops the steps that could have been redone, as in Vim.
  for i = #undo.states, undo.at + 1, -1 do
    undo.states[i] = nil
  end
  table.insert(undo.states, text)
  if #undo.states > M.MAX_STEPS then
    table.remove(undo.states, 1)
  end
  undo.at = #undo.states
end

--- Whether the cursor of the current window is in the chat's input (under the prompt line).
---@param chat agent_lsp.Chat
---@return boolean
function M.in_input(chat)
  return vim.api.nvim_get_current_buf() == chat.buf and vim.api.nvim_win_get_cursor(0)[1] - 1 > render.prompt_row(chat)
end

--- Puts `text` into the input; the cursor goes to the first line that differs from `before`.
local function restore(chat, text, before)
  local first = render.prompt_row(chat) + 1
  local lines = vim.split(text, "\n", { plain = true })
  local old = vim.split(before, "\n", { plain = true })
  local differ = 1
  while differ <= #lines and lines[differ] == old[differ] do
    differ = differ + 1
  end
  differ = math.min(differ, #lines)
  vim.api.nvim_buf_set_lines(chat.buf, first, -1, false, lines)
  if vim.api.nvim_get_current_buf() == chat.buf then
    vim.api.nvim_win_set_cursor(0, { first + differ, 0 })
  end
end

--- Moves `count` steps back (negative) or forward (positive) in the input's history.
---@param chat agent_lsp.Chat
---@param count integer
---@return boolean moved
function M.step(chat, count)
  M.record(chat) -- typing not recorded yet (no TextChanged since) is a step of its own
  local undo = chat.input_undo
  local target = math.max(1, math.min(#undo.states, undo.at + count))
  if target == undo.at then
    vim.api.nvim_echo({ { count < 0 and "Already at oldest change of the input" or "Already at newest change of the input" } }, false, {})
    return false
  end
  local before = undo.states[undo.at]
  undo.at = target
  restore(chat, undo.states[target], before)
  return true
end

--- Starts the input's history of a chat and records its steps from the buffer's events.
---@param chat agent_lsp.Chat
---@param group integer the chat buffer's augroup
function M.attach(chat, group)
  chat.input_undo = { states = { input_text(chat) }, at = 1 }
  vim.api.nvim_create_autocmd({ "TextChanged", "InsertLeave" }, {
    group = group,
    buffer = chat.buf,
    callback = function()
      M.record(chat)
    end,
  })
end

return M
