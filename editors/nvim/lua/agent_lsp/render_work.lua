---@mod agent_lsp.render_work The updates of long work in a chat buffer: the checklist, subagents,
--- reports and the result.
---
--- The checklist (a `plan` update whose entries carry ids) is one block at the top of the chat,
--- under its title, replaced by each update. A subagent's updates (tagged `parentToolCallId`) are
--- detail lines ("  │ ↳ ...") of the parent's tool call, so they fold with it. Phase reports, the
--- agent's messages while it works, and the final result are blocks of their own.

local blocks = require("agent_lsp.render_block")

local M = {}

local STATUS_LABEL = { pending = "pending", running = "running", completed = "done", failed = "failed" }
local BOX = { completed = "[x]", in_progress = "[-]", pending = "[ ]" }

--- Highlights: the result stands apart from the running answer.
vim.cmd("highlight default link AgentLspResult DiffAdd")
vim.cmd("highlight default link AgentLspPhase Identifier")

--- True for a checklist (task_create & co.); make_plan's proposal has no ids and stays inline.
---@param u table plan update
---@return boolean
function M.is_checklist(u)
  local first = (u.entries or {})[1]
  return first ~= nil and first.id ~= nil and first.id ~= vim.NIL
end

--- The checklist's lines.
local function checklist_lines(entries)
  local done = 0
  for _, e in ipairs(entries) do
    if e.status == "completed" then
      done = done + 1
    end
  end
  local lines = { string.format("**Checklist** (%d of %d done)", done, #entries) }
  for _, e in ipairs(entries) do
    table.insert(lines, string.format("- %s %s", BOX[e.status] or "[ ]", (e.content or ""):gsub("\n", " ")))
  end
  return lines
end

--- Shows the checklist at the top of the chat (under the title lines), replacing the last one.
---@param chat table
---@param u table plan update
function M.checklist(chat, u)
  local lines = checklist_lines(u.entries or {})
  chat.checklist = blocks.replace(chat, chat.checklist, lines, function()
    -- Row 2: after "# agent-lsp chat" and the session line, above the blank line that opens
    -- the conversation.
    vim.api.nvim_buf_set_lines(chat.buf, 2, 2, false, lines)
    return 2
  end)
end

--- The line of one subagent step under its parent call.
local function step_line(step)
  local who = step.subagent and string.format("#%d ", step.subagent) or ""
  return string.format("%s↳ %s[%s] %s", blocks.DETAIL, who, STATUS_LABEL[step.status] or step.status, step.title)
end

--- Inserts a line among the parent call's detail lines, before its result.
local function insert_under(chat, parent, line)
  local row = vim.api.nvim_buf_get_extmark_by_id(chat.buf, blocks.ns, parent.mark, {})[1]
  local at = row + parent.count - parent.result_lines
  vim.api.nvim_buf_set_lines(chat.buf, at, at, false, { line })
  parent.count = parent.count + 1
  return at
end

--- Renders a subagent's update under its parent's tool call. False when the parent call is not
--- in this buffer (the caller then shows the update as it would any other).
---@param chat table
---@param u table update with parentToolCallId
---@return boolean
function M.subagent(chat, u)
  local parent = chat.tools[u.parentToolCallId]
  if not parent then
    return false
  end
  chat.substeps = chat.substeps or {}
  if u.kind == "tool_call" then
    local step = { title = (u.title ~= nil and u.title ~= "") and u.title or u.name, status = u.status or "pending", subagent = u.subagent }
    local row = insert_under(chat, parent, step_line(step))
    step.mark = vim.api.nvim_buf_set_extmark(chat.buf, blocks.ns, row, 0, {})
    chat.substeps[u.id] = step
  elseif u.kind == "tool_call_update" then
    local step = chat.substeps[u.id]
    if step then
      step.status = u.status or step.status
      local row = vim.api.nvim_buf_get_extmark_by_id(chat.buf, blocks.ns, step.mark, {})[1]
      blocks.rewrite(chat.buf, row, row + 1, { step_line(step) })
      vim.api.nvim_buf_set_extmark(chat.buf, blocks.ns, row, 0, { id = step.mark })
    end
  elseif u.kind == "error" or u.kind == "status" then
    local text = (u.message or u.text or ""):gsub("\n", " ")
    insert_under(chat, parent, string.format("%s↳ #%s %s", blocks.DETAIL, tostring(u.subagent or "?"), text))
  end
  -- Its text and thoughts come back as the parent call's output; its usage is in the session's.
  return true
end

--- Inserts a block and highlights its lines.
local function highlighted_block(chat, lines, hl)
  blocks.note(chat, table.concat(lines, "\n"))
  local last = blocks.prompt_row(chat) - 1
  for row = last - #lines + 1, last do
    local text = vim.api.nvim_buf_get_lines(chat.buf, row, row + 1, false)[1] or ""
    vim.api.nvim_buf_set_extmark(chat.buf, blocks.ns, row, 0, { end_row = row, end_col = #text, hl_group = hl })
  end
end

--- A message the agent sent while it goes on working.
---@param chat table
---@param u table working_message update
function M.working_message(chat, u)
  blocks.note(chat, "» " .. (u.text or ""):gsub("\n", "\n  "))
end

--- A finished phase.
---@param chat table
---@param u table phase_report update
function M.phase_report(chat, u)
  local lines = { "**Phase done:** " .. (u.completed or ""), "_Verified:_ " .. (u.verification or "") }
  if u.nextPhase and u.nextPhase ~= vim.NIL then
    table.insert(lines, "_Next:_ " .. u.nextPhase)
  end
  if u.requiresAcknowledgment then
    table.insert(lines, "_(waits for you to continue)_")
  end
  highlighted_block(chat, lines, "AgentLspPhase")
end

--- The task's result: set apart from the answer, highlighted.
---@param chat table
---@param u table completion update
function M.completion(chat, u)
  local lines = { "### Result" }
  vim.list_extend(lines, vim.split(u.result or "", "\n", { plain = true }))
  if u.command and u.command ~= vim.NIL then
    table.insert(lines, "Run: `" .. u.command .. "`")
  end
  highlighted_block(chat, lines, "AgentLspResult")
end

--- A task the agent started in a session of its own.
---@param chat table
---@param u table task_spawned update
function M.task_spawned(chat, u)
  blocks.note(chat, string.format('_Started the task "%s" (session %s): :AgentSessions opens it._', u.title or "", u.sessionId or ""))
end

local HANDLERS = {
  working_message = M.working_message,
  phase_report = M.phase_report,
  completion = M.completion,
  task_spawned = M.task_spawned,
}

--- Renders the updates of long work; false for any other update (render.lua shows it).
---@param chat table
---@param u table the update
---@return boolean handled
function M.render(chat, u)
  if u.parentToolCallId and u.parentToolCallId ~= vim.NIL and M.subagent(chat, u) then
    return true
  end
  if u.kind == "plan" and M.is_checklist(u) then
    M.checklist(chat, u)
    return true
  end
  local handler = HANDLERS[u.kind]
  if handler then
    handler(chat, u)
    return true
  end
  return false
end

return M
