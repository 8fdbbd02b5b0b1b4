---@mod agent_lsp.render Writes agent/update notifications into a chat buffer's transcript.
---
--- The transcript is everything above the prompt line (tracked by an extmark, so it survives
--- edits). Text streams into the last transcript line; tool calls are a header line
--- ("▸ [status] title") followed by detail lines ("  │ ...") that the chat window folds, so
--- each call shows as one line until opened with zo/za.

local util = require("agent_lsp.util")
local work = require("agent_lsp.render_work")

local M = {}

M.ns = vim.api.nvim_create_namespace("agent_lsp_chat")
--- The role headers ("## You", "## Agent") the plugin wrote: a heading in the model's own text
--- is never one of them, so the highlight and ]] / [[ cannot be fooled by it.
M.roles_ns = vim.api.nvim_create_namespace("agent_lsp_roles")
M.ROLE_HL = { you = "AgentLspRoleYou", agent = "AgentLspRoleAgent" }
vim.cmd("highlight default link AgentLspRoleYou Title")
vim.cmd("highlight default link AgentLspRoleAgent Special")

--- Marks the role header at `row` with its highlight.
local function mark_role(chat, row, role)
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

--- Prefix of a tool call's header line; the fold expression keys on it.
M.TOOL_PREFIX = "▸ "
--- Prefix of a tool call's detail lines (input, output, diff).
M.DETAIL = "  │ "

local MAX_DETAIL_LINES = 200
local STATUS_LABEL = { pending = "pending", running = "running", completed = "done", failed = "failed", declined = "declined" }

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

--- Moves the cursor to the next (1) or previous (-1) "## You" header.
---@param chat agent_lsp.Chat
---@param direction integer
function M.jump_turn(chat, direction)
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local rows = M.role_rows(chat, "you")
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

--- Inserts lines at the end of the transcript; returns the row of the first one.
---@param chat table
---@param lines string[]
---@return integer row
function M.insert(chat, lines)
  local row = M.prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row, row, false, lines)
  return row
end

local function last_line(chat)
  local row = M.prompt_row(chat)
  if row == 0 then
    return nil, -1
  end
  return vim.api.nvim_buf_get_lines(chat.buf, row - 1, row, false)[1], row - 1
end

--- Inserts lines as a new block: after a blank separator unless one (or a heading) is already
--- there. Returns the row of the block's first line.
local function block(chat, lines)
  local prev = last_line(chat)
  local sep = prev ~= nil and prev ~= "" and not prev:match("^#")
  if not sep then
    return M.insert(chat, lines)
  end
  local with_sep = { "" }
  vim.list_extend(with_sep, lines)
  return M.insert(chat, with_sep) + 1
end

--- Writes the "## Agent" heading once per turn, before the first output.
local function heading(chat)
  if chat.need_heading then
    chat.need_heading = false
    mark_role(chat, block(chat, { "## Agent" }), "agent")
  end
end

--- Keeps the text of the model's latest message: it explains the tool calls that follow it, and
--- the diff review shows it on top. Text after a tool call starts the next message's.
local function remember_explanation(chat, text)
  if chat.explanation_done then
    chat.explanation, chat.explanation_done = "", false
  end
  chat.explanation = (chat.explanation or "") .. text
end

--- Appends streamed text; `prefix` starts every new line ("> " for thoughts).
local function stream(chat, kind, text, prefix)
  heading(chat)
  if chat.stream_kind ~= kind then
    chat.stream_kind = kind
    block(chat, { prefix })
  end
  local cur, row = last_line(chat)
  local pieces = vim.split(text, "\n", { plain = true })
  local lines = { (cur or "") .. pieces[1] }
  for i = 2, #pieces do
    table.insert(lines, prefix .. pieces[i])
  end
  vim.api.nvim_buf_set_lines(chat.buf, row, row + 1, false, lines)
end

--- Detail lines for one labelled value; multi-line strings get one line each.
local function detail(label, value)
  if type(value) ~= "string" then
    local ok, encoded = pcall(vim.json.encode, value)
    value = ok and encoded or vim.inspect(value)
  end
  local lines = util.split_lines(value)
  if #lines == 1 then
    return { M.DETAIL .. label .. ": " .. lines[1] }
  end
  local out = { M.DETAIL .. label .. ":" }
  for i, l in ipairs(lines) do
    if i > MAX_DETAIL_LINES then
      table.insert(out, M.DETAIL .. string.format("  … (%d more lines)", #lines - MAX_DETAIL_LINES))
      break
    end
    table.insert(out, M.DETAIL .. "  " .. l)
  end
  return out
end

local function input_lines(input)
  local out = {}
  -- A JSON object decodes to a table without list items (vim.tbl_islist is deprecated in 0.10).
  if type(input) == "table" and input[1] == nil and next(input) ~= nil then
    local keys = vim.tbl_keys(input)
    table.sort(keys)
    for _, k in ipairs(keys) do
      vim.list_extend(out, detail(k, input[k]))
    end
  elseif input ~= nil and input ~= vim.NIL then
    out = detail("input", input)
  end
  return out
end

local function header(entry)
  return string.format("%s[%s] %s", M.TOOL_PREFIX, STATUS_LABEL[entry.status] or entry.status, entry.title)
end

--- The title of a tool call's fold. A provider-native call (`modelName`, e.g. Anthropic's
--- `str_replace_based_edit_tool` run as our edit_file) is named as the model called it.
---@param u table the tool_call update
---@return string
function M.tool_title(u)
  local title = (type(u.title) == "string" and u.title ~= "") and u.title or tostring(u.name)
  local model = u.modelName
  if type(model) ~= "string" or model == "" or model == u.name then
    return title
  end
  if title == u.name or title == model then
    return model
  end
  return model .. " · " .. title
end

local function tool_call(chat, u)
  heading(chat)
  chat.stream_kind = nil
  chat.explanation_done = true
  local entry = { title = M.tool_title(u), status = u.status or "pending", result_lines = 0, turn = chat.turn }
  local lines = { header(entry) }
  -- The input as the model wrote it (old_str/new_str, command), when the server rewrote it.
  local input = u.input
  if u.modelInput ~= nil and u.modelInput ~= vim.NIL then
    input = u.modelInput
  end
  vim.list_extend(lines, input_lines(input))
  local row = block(chat, lines)
  entry.count = #lines
  entry.mark = vim.api.nvim_buf_set_extmark(chat.buf, M.ns, row, 0, {})
  chat.tools[u.id] = entry
end

local function tool_update(chat, u)
  local entry = chat.tools[u.id]
  if not entry then
    -- An update for a call this buffer never saw (replay from another client): show it anyway.
    tool_call(chat, { id = u.id, name = "tool", title = "tool " .. tostring(u.id), status = u.status })
    entry = chat.tools[u.id]
  end
  entry.status = u.status or entry.status
  if entry.status == "failed" and chat.declined and chat.declined[u.id] then
    entry.status = "declined"
  end
  local row = vim.api.nvim_buf_get_extmark_by_id(chat.buf, M.ns, entry.mark, {})[1]
  vim.api.nvim_buf_set_lines(chat.buf, row, row + 1, false, { header(entry) })
  vim.api.nvim_buf_set_extmark(chat.buf, M.ns, row, 0, { id = entry.mark })
  if u.output == nil and u.diff == nil then
    return
  end
  local result = {}
  if u.output ~= nil and u.output ~= vim.NIL then
    vim.list_extend(result, detail("output", u.output))
  end
  if u.diff ~= nil and u.diff ~= vim.NIL then
    vim.list_extend(result, detail("diff", u.diff))
  end
  -- A later result (progress, then the final output) replaces the previous one.
  local first = row + entry.count - entry.result_lines
  vim.api.nvim_buf_set_lines(chat.buf, first, row + entry.count, false, result)
  entry.count = entry.count - entry.result_lines + #result
  entry.result_lines = #result
end

local function plan(chat, u)
  heading(chat)
  chat.stream_kind = nil
  local lines = { "**Plan**" }
  for _, e in ipairs(u.entries or {}) do
    local box = e.status == "completed" and "[x]" or (e.status == "in_progress" and "[-]" or "[ ]")
    table.insert(lines, string.format("- %s %s", box, (e.content or ""):gsub("\n", " ")))
  end
  -- Each plan update replaces the turn's previous plan block.
  chat.plan = work.replace_block(chat, chat.plan, lines, function()
    return block(chat, lines)
  end)
end

local function thousands(n)
  local s = tostring(math.floor(tonumber(n) or 0))
  return (s:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

--- One line: tokens in/out/cached and the cost when known.
---@param u table usage update
---@return string
function M.usage_line(u)
  local parts = {
    thousands(u.inputTokens) .. " in",
    thousands(u.outputTokens) .. " out",
    thousands(u.cachedTokens) .. " cached",
  }
  if type(u.cost) == "number" then
    local cost = string.format("$%.4f", u.cost)
    if type(u.sessionCost) == "number" then
      cost = cost .. string.format(" (session $%.4f)", u.sessionCost)
    end
    table.insert(parts, cost)
  end
  return "_Usage: " .. table.concat(parts, " · ") .. "_"
end

--- A line of the plugin's own (turn end, errors), as its own block.
---@param chat table
---@param text string
function M.note(chat, text)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  chat.stream_kind = nil
  block(chat, vim.split(text, "\n", { plain = true }))
end

--- The user's prompt, as sent or replayed. A slash command (`command`) is shown the same way but
--- leaves the last exchange where it was (an edit replaces the last prompt, not a command).
---@param chat table
---@param text string
---@param opts {command: boolean|nil}|nil
function M.user_message(chat, text, opts)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  chat.stream_kind = nil
  chat.plan = nil
  chat.explanation, chat.explanation_done = "", false
  local lines = { "## You" }
  vim.list_extend(lines, vim.split(text, "\n", { plain = true }))
  local row = block(chat, lines)
  mark_role(chat, row, "you")
  chat.need_heading = true
  if opts and opts.command then
    return
  end
  -- Where the last exchange starts, and what it asked: an edit of the last prompt replaces both.
  chat.exchange_mark = vim.api.nvim_buf_set_extmark(chat.buf, M.ns, row, 0, { id = chat.exchange_mark })
  chat.last_user_text = text
end

--- What to do about a turn's error, when its text says what kind it is: a refused key (the
--- server names where the key came from) or a server that could not be reached (it names the
--- base URL).
---@param message string
---@return string hint starting with a space, or ""
function M.error_hint(message)
  local lower = message:lower()
  if lower:find("the key came from", 1, true) or lower:find("no api key", 1, true) or lower:find("401", 1, true) or lower:find("403", 1, true) then
    return " — check the key: :checkhealth agent_lsp (:AgentDoctor live makes one call with it)"
  end
  if lower:find("could not reach", 1, true) or lower:find("the connection to", 1, true) then
    return " — is the server running at that base URL? :AgentDoctor live checks it"
  end
  return ""
end

--- One folded line per attachment of the prompt just sent, and a note for what was not found.
---@param chat table
---@param items {label: string}[]
---@param problems string[]
function M.attachments(chat, items, problems)
  if not vim.api.nvim_buf_is_valid(chat.buf) or (#items == 0 and #problems == 0) then
    return
  end
  local lines = {}
  for _, item in ipairs(items) do
    table.insert(lines, M.TOOL_PREFIX .. "[attached] " .. item.label)
  end
  for _, p in ipairs(problems) do
    table.insert(lines, "_not attached: " .. p .. "_")
  end
  M.insert(chat, lines)
end

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
  local kind = u.kind
  if kind == "text" then
    remember_explanation(chat, u.text or "")
    stream(chat, "text", u.text or "", "")
  elseif kind == "thought" then
    stream(chat, "thought", u.text or "", "> ")
  elseif kind == "tool_call" then
    tool_call(chat, u)
  elseif kind == "tool_call_update" then
    tool_update(chat, u)
  elseif kind == "plan" then
    plan(chat, u)
  elseif kind == "usage" then
    M.note(chat, M.usage_line(u))
  elseif kind == "status" then
    M.note(chat, "_" .. (u.text or "") .. "_")
  elseif kind == "compaction" then
    -- A marker where the older history left the model's context (the server's log keeps it).
    M.note(chat, string.format("_── context compacted (checkpoint %s, %s): about %s → %s tokens; messages 1-%s archived ──_", tostring(u.n), tostring(u.trigger), thousands(u.tokensBefore), thousands(u.tokensAfter), tostring(u.through)))
  elseif kind == "error" then
    local message = (u.message or "unknown error") .. M.error_hint(u.message or "")
    M.note(chat, "**Error:** " .. message)
    util.error(message)
  elseif kind == "user_message" then
    M.user_message(chat, u.text or "")
  end
end

return M
