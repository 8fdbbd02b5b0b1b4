---@mod agent_lsp.render_block Where blocks go in a chat buffer's transcript.
---
--- The transcript is everything above the prompt line (tracked by an extmark, so it survives
--- edits). Each kind of block (streamed text, tool calls, long work, notes) is written by its own
--- module through these helpers: a block goes after a blank separator, the "## Agent" heading
--- comes once per turn, and a block written before is rewritten in place.

local M = {}

M.ns = vim.api.nvim_create_namespace("agent_lsp_chat")
--- The role headers ("## You", "## Agent") the plugin wrote: a heading in the model's own text
--- is never one of them, so the highlight and ]] / [[ cannot be fooled by it.
M.roles_ns = vim.api.nvim_create_namespace("agent_lsp_roles")
M.ROLE_HL = { you = "AgentLspRoleYou", agent = "AgentLspRoleAgent" }
vim.cmd("highlight default link AgentLspRoleYou Title")
vim.cmd("highlight default link AgentLspRoleAgent Special")

--- Prefix of a tool call's header line; the fold expression keys on it.
M.TOOL_PREFIX = "▸ "
--- Prefix of a tool call's detail lines (input, output, diff).
M.DETAIL = "  │ "

--- Marks the role header at `row` with its highlight.
---@param chat table
---@param row integer 0-based
---@param role "you"|"agent"
function M.mark_role(chat, row, role)
  local line = vim.api.nvim_buf_get_lines(chat.buf, row, row + 1, false)[1] or ""
  vim.api.nvim_buf_set_extmark(chat.buf, M.roles_ns, row, 0, { end_row = row, end_col = #line, hl_group = M.ROLE_HL[role], priority = 200 })
end

--- Rows (0-based) of the role headers of `role` ("you" starts each turn).
---@param chat table
---@param role "you"|"agent"
---@return integer[]
function M.role_rows(chat, role)
  local rows = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(chat.buf, M.roles_ns, 0, -1, { details = true })) do
    if m[4].hl_group == M.ROLE_HL[role] then
      table.insert(rows, m[2])
    end
  end
  return rows
end

---@param chat table
---@return integer row 0-based row of the prompt line
function M.prompt_row(chat)
  local buf = chat.buf
  local pos = vim.api.nvim_buf_get_extmark_by_id(buf, M.ns, chat.mark, {})
  local row = pos[1]
  if row and (vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or "") == chat.prompt_text then
    return row
  end
  -- The user edited the prompt line away: find it again, or put a new one at the end.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i = #lines, 1, -1 do
    if lines[i] == chat.prompt_text then
      row = i - 1
      break
    end
  end
  if not row or lines[row + 1] ~= chat.prompt_text then
    row = #lines
    vim.api.nvim_buf_set_lines(buf, row, row, false, { chat.prompt_text })
  end
  chat.mark = M.mark_prompt(buf, row, chat.prompt_text, chat.mark)
  return row
end

--- Places (or moves) the prompt line's extmark, highlighted as a comment.
---@param buf integer
---@param row integer
---@param text string the prompt line
---@param id integer|nil the existing mark
---@return integer id
function M.mark_prompt(buf, row, text, id)
  return vim.api.nvim_buf_set_extmark(buf, M.ns, row, 0, { id = id, hl_group = "Comment", end_row = row, end_col = #text })
end

--- Inserts lines at the end of the transcript; returns the row of the first one.
---@param chat table
---@param lines string[]
---@return integer row
function M.insert(chat, lines)
  local row = M.prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row, row, false, lines)
  return row
end

--- The transcript's last line and its row (nil and -1 when the transcript is empty).
---@param chat table
---@return string|nil line
---@return integer row
function M.last_line(chat)
  local row = M.prompt_row(chat)
  if row == 0 then
    return nil, -1
  end
  return vim.api.nvim_buf_get_lines(chat.buf, row - 1, row, false)[1], row - 1
end

--- Inserts lines as a new block: after a blank separator unless one (or a heading) is already
--- there. Returns the row of the block's first line.
---@param chat table
---@param lines string[]
---@return integer row
function M.block(chat, lines)
  local prev = M.last_line(chat)
  local sep = prev ~= nil and prev ~= "" and not prev:match("^#")
  if not sep then
    return M.insert(chat, lines)
  end
  local with_sep = { "" }
  vim.list_extend(with_sep, lines)
  return M.insert(chat, with_sep) + 1
end

--- Writes the "## Agent" heading once per turn, before the first output.
---@param chat table
function M.heading(chat)
  if chat.need_heading then
    chat.need_heading = false
    M.mark_role(chat, M.block(chat, { "## Agent" }), "agent")
  end
end

--- Rewrites rows `first` to `last` (0-based, end exclusive) with `lines`. A rewrite of lines
--- that stay is a text change (nvim_buf_set_text), not a replacement of lines: from Neovim 0.12
--- replaced lines leave the fold levels of the lines below stale (a tool call's detail line then
--- shows loose between two closed folds until `zx`), while a text change keeps them right.
---@param buf integer
---@param first integer
---@param last integer
---@param lines string[]
function M.rewrite(buf, first, last, lines)
  if last <= first or #lines == 0 then
    -- Only inserting or only deleting: no line stays, so there is nothing to keep.
    vim.api.nvim_buf_set_lines(buf, first, last, false, lines)
    return
  end
  local tail = vim.api.nvim_buf_get_lines(buf, last - 1, last, false)[1] or ""
  vim.api.nvim_buf_set_text(buf, first, 0, last - 1, #tail, lines)
end

--- Writes `lines` over a block written before (`placed`: its mark and line count), or, the first
--- time, where `place()` puts them (it returns their first row). Returns the block's new state.
---@param chat table
---@param placed {mark: integer, count: integer}|nil
---@param lines string[]
---@param place fun(): integer
---@return {mark: integer, count: integer}
function M.replace(chat, placed, lines, place)
  if not placed then
    return { mark = vim.api.nvim_buf_set_extmark(chat.buf, M.ns, place(), 0, {}), count = #lines }
  end
  local row = vim.api.nvim_buf_get_extmark_by_id(chat.buf, M.ns, placed.mark, {})[1]
  M.rewrite(chat.buf, row, row + placed.count, lines)
  vim.api.nvim_buf_set_extmark(chat.buf, M.ns, row, 0, { id = placed.mark })
  return { mark = placed.mark, count = #lines }
end

--- A line of the plugin's own (turn end, errors), as its own block.
---@param chat table
---@param text string
function M.note(chat, text)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  chat.stream_kind = nil
  M.block(chat, vim.split(text, "\n", { plain = true }))
end

return M
