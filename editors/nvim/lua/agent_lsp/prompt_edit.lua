---@mod agent_lsp.prompt_edit Edit the last prompt and send it again, in its place.
---
--- :AgentEdit (or the chat's `edit_last` key) puts the last prompt into the input; sending it
--- asks the server to replace the last exchange (`agent/prompt` with `replaceLast`): the model
--- forgets that prompt and its answer, and the transcript drops them too. The server's log keeps
--- them (a `rewind` record), so a reloaded session shows the conversation as edited.

local render = require("agent_lsp.render")
local util = require("agent_lsp.util")

local M = {}

M.ns = vim.api.nvim_create_namespace("agent_lsp_prompt_edit")
M.HINT = "editing the last prompt: sending replaces it and its answer (:AgentEdit again stops)"

--- The prompt an edit starts from: the last this Neovim sent, else the last one shown (replay).
---@param chat agent_lsp.Chat
---@return {text: string, context: table|nil}|nil
local function last_prompt(chat)
  if chat.last_prompt then
    return chat.last_prompt
  end
  if chat.last_user_text then
    return { text = chat.last_user_text }
  end
  return nil
end

local function show_hint(chat, on)
  vim.api.nvim_buf_clear_namespace(chat.buf, M.ns, 0, -1)
  if on then
    -- A virtual line under the prompt line: a narrow chat window has no room at its end.
    vim.api.nvim_buf_set_extmark(chat.buf, M.ns, render.prompt_row(chat), 0, { virt_lines = { { { "✎ " .. M.HINT, "WarningMsg" } } } })
  end
end

--- Starts editing the last prompt (its text replaces the input), or stops when already editing.
---@param chat agent_lsp.Chat
---@return boolean editing
function M.toggle(chat)
  if chat.editing then
    chat.editing = nil
    show_hint(chat, false)
    util.notify("stopped editing: the input is sent as a new prompt")
    return false
  end
  if chat.busy then
    util.warn("the agent is still answering; cancel it first, then edit")
    return false
  end
  local last = last_prompt(chat)
  if not last then
    util.notify("nothing to edit: this chat has sent no prompt yet")
    return false
  end
  chat.editing = { context = last.context }
  require("agent_lsp.prompt_history").set_input(chat, last.text)
  show_hint(chat, true)
  local win = vim.fn.bufwinid(chat.buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  end
  return true
end

--- Whether the next prompt replaces the last exchange; the edit ends with it. Removes that
--- exchange from the transcript (from its "## You" header to the prompt line).
---@param chat agent_lsp.Chat
---@return {context: table|nil}|nil the edit, when one was pending
function M.take(chat)
  local edit = chat.editing
  if not edit then
    return nil
  end
  chat.editing = nil
  show_hint(chat, false)
  local mark = chat.exchange_mark
  if mark then
    local first = vim.api.nvim_buf_get_extmark_by_id(chat.buf, render.ns, mark, {})[1]
    local last = render.prompt_row(chat)
    if first and first < last then
      vim.api.nvim_buf_set_lines(chat.buf, first, last, false, {})
    end
  end
  return edit
end

return M
