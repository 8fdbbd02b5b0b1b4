---@mod agent_lsp.render Writes agent/update notifications into a chat buffer's transcript.
---
--- Each kind of block has its module: render_text (streamed text and thoughts, plans, notes
--- about a turn), render_tool (tool calls, folded to one line), render_work (long work: the
--- checklist, subagents, reports, the result); render_block says where blocks go. This module
--- turns an update into the right block and writes the user's own prompts; it also keeps the
--- one API the other modules of the plugin use.

local blocks = require("agent_lsp.render_block")
local text = require("agent_lsp.render_text")
local tool = require("agent_lsp.render_tool")
local util = require("agent_lsp.util")
local work = require("agent_lsp.render_work")

local M = {}

M.ns = blocks.ns
M.roles_ns = blocks.roles_ns
M.ROLE_HL = blocks.ROLE_HL
M.TOOL_PREFIX = blocks.TOOL_PREFIX
M.DETAIL = blocks.DETAIL
M.role_rows = blocks.role_rows
M.prompt_row = blocks.prompt_row
M.mark_prompt = blocks.mark_prompt
M.insert = blocks.insert
M.note = blocks.note
M.tool_title = tool.title
M.attachments = tool.attachments
M.usage_line = text.usage_line
M.error_hint = text.error_hint

--- Moves the cursor to the next (1) or previous (-1) "## You" header.
---@param chat agent_lsp.Chat
---@param direction integer
function M.jump_turn(chat, direction)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local rows = blocks.role_rows(chat, "you")
  local target
  for i = direction > 0 and 1 or #rows, direction > 0 and #rows or 1, direction do
    if (direction > 0 and rows[i] > row) or (direction < 0 and rows[i] < row) then
      target = rows[i]
      break
    end
  end
  if target then
    vim.api.nvim_win_set_cursor(0, { target + 1, 0 })
  end
end

--- The user's prompt, as sent or replayed. A slash command (`command`) is shown the same way but
--- leaves the last exchange where it was (an edit replaces the last prompt, not a command).
---@param chat table
---@param prompt string
---@param opts {command: boolean|nil}|nil
function M.user_message(chat, prompt, opts)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  chat.stream_kind = nil
  chat.plan = nil
  chat.explanation, chat.explanation_done = "", false
  local lines = { "## You" }
  vim.list_extend(lines, vim.split(prompt, "\n", { plain = true }))
  local row = blocks.block(chat, lines)
  blocks.mark_role(chat, row, "you")
  chat.need_heading = true
  if opts and opts.command then
    return
  end
  -- Where the last exchange starts, and what it asked: an edit of the last prompt replaces both.
  chat.exchange_mark = vim.api.nvim_buf_set_extmark(chat.buf, blocks.ns, row, 0, { id = chat.exchange_mark })
  chat.last_user_text = prompt
end

local function error_block(chat, u)
  local message = (u.message or "unknown error") .. text.error_hint(u.message or "")
  M.note(chat, "**Error:** " .. message)
  util.error(message)
end

--- The writer of each kind of update that is not long work.
local HANDLERS = {
  text = function(chat, u)
    text.remember_explanation(chat, u.text or "")
    text.stream(chat, "text", u.text or "", "")
  end,
  thought = function(chat, u)
    text.stream(chat, "thought", u.text or "", "> ")
  end,
  tool_call = tool.call,
  tool_call_update = tool.update,
  plan = text.plan,
  usage = function(chat, u)
    M.note(chat, text.usage_line(u))
  end,
  status = function(chat, u)
    M.note(chat, "_" .. (u.text or "") .. "_")
  end,
  compaction = function(chat, u)
    M.note(chat, text.compaction_line(u))
  end,
  error = error_block,
  user_message = function(chat, u)
    M.user_message(chat, u.text or "")
    -- A replayed prompt names the files it carried (as paths); shown as when it was sent.
    local items = {}
    for _, path in ipairs(type(u.attachments) == "table" and u.attachments or {}) do
      table.insert(items, { label = "file " .. path })
    end
    M.attachments(chat, items, {})
  end,
}

--- Renders one agent/update.
---@param chat table
---@param u table the update
function M.update(chat, u)
  -- The user may wipe a chat buffer while its session still streams.
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  -- The checklist, a subagent's steps, reports and the result.
  if work.render(chat, u) then
    return
  end
  local handler = HANDLERS[u.kind]
  if handler then
    handler(chat, u)
  end
end

return M
