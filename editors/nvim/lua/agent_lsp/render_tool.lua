---@mod agent_lsp.render_tool Tool calls in a chat buffer: a header line ("▸ [status] title")
--- followed by detail lines ("  │ ...": the input, then the output or diff) that the chat window
--- folds, so each call shows as one line until opened with zo/za.

local blocks = require("agent_lsp.render_block")
local util = require("agent_lsp.util")

local M = {}

local MAX_DETAIL_LINES = 200
local STATUS_LABEL = { pending = "pending", running = "running", completed = "done", failed = "failed", declined = "declined" }

--- Detail lines for one labelled value; multi-line strings get one line each.
---@param label string
---@param value any
---@return string[]
function M.detail(label, value)
  if type(value) ~= "string" then
    local ok, encoded = pcall(vim.json.encode, value)
    value = ok and encoded or vim.inspect(value)
  end
  local lines = util.split_lines(value)
  if #lines == 1 then
    return { blocks.DETAIL .. label .. ": " .. lines[1] }
  end
  local out = { blocks.DETAIL .. label .. ":" }
  for i, l in ipairs(lines) do
    if i > MAX_DETAIL_LINES then
      table.insert(out, blocks.DETAIL .. string.format("  … (%d more lines)", #lines - MAX_DETAIL_LINES))
      break
    end
    table.insert(out, blocks.DETAIL .. "  " .. l)
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
      vim.list_extend(out, M.detail(k, input[k]))
    end
  elseif input ~= nil and input ~= vim.NIL then
    out = M.detail("input", input)
  end
  return out
end

local function header(entry)
  return string.format("%s[%s] %s", blocks.TOOL_PREFIX, STATUS_LABEL[entry.status] or entry.status, entry.title)
end

--- The title of a tool call's fold. A provider-native call (`modelName`, e.g. Anthropic's
--- `str_replace_based_edit_tool` run as our edit_file) is named as the model called it.
---@param u table the tool_call update
---@return string
function M.title(u)
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

--- A new tool call: its header and input, folded.
---@param chat table
---@param u table the tool_call update
function M.call(chat, u)
  blocks.heading(chat)
  chat.stream_kind = nil
  chat.explanation_done = true
  local entry = { title = M.title(u), status = u.status or "pending", result_lines = 0, turn = chat.turn }
  local lines = { header(entry) }
  -- The input as the model wrote it (old_str/new_str, command), when the server rewrote it.
  local input = u.input
  if u.modelInput ~= nil and u.modelInput ~= vim.NIL then
    input = u.modelInput
  end
  vim.list_extend(lines, input_lines(input))
  local row = blocks.block(chat, lines)
  entry.count = #lines
  entry.mark = vim.api.nvim_buf_set_extmark(chat.buf, blocks.ns, row, 0, {})
  chat.tools[u.id] = entry
end

--- The result lines of an update (output, diff); nil when it carries neither.
local function result_lines(u)
  if u.output == nil and u.diff == nil then
    return nil
  end
  local result = {}
  if u.output ~= nil and u.output ~= vim.NIL then
    vim.list_extend(result, M.detail("output", u.output))
  end
  if u.diff ~= nil and u.diff ~= vim.NIL then
    vim.list_extend(result, M.detail("diff", u.diff))
  end
  return result
end

--- A tool call's new status in its header, and its result under the input.
---@param chat table
---@param u table the tool_call_update update
function M.update(chat, u)
  local entry = chat.tools[u.id]
  if not entry then
    -- An update for a call this buffer never saw (replay from another client): show it anyway.
    M.call(chat, { id = u.id, name = "tool", title = "tool " .. tostring(u.id), status = u.status })
    entry = chat.tools[u.id]
  end
  entry.status = u.status or entry.status
  -- The server marks a call the user said No to (or took nothing of) as declined; so does the
  -- plugin for the calls whose approval it answered No, for servers that do not mark them.
  if entry.status == "failed" and (u.declined == true or (chat.declined and chat.declined[u.id])) then
    entry.status = "declined"
  end
  local row = vim.api.nvim_buf_get_extmark_by_id(chat.buf, blocks.ns, entry.mark, {})[1]
  blocks.rewrite(chat.buf, row, row + 1, { header(entry) })
  vim.api.nvim_buf_set_extmark(chat.buf, blocks.ns, row, 0, { id = entry.mark })
  local result = result_lines(u)
  if not result then
    return
  end
  -- A later result (progress, then the final output) replaces the previous one.
  local first = row + entry.count - entry.result_lines
  blocks.rewrite(chat.buf, first, row + entry.count, result)
  entry.count = entry.count - entry.result_lines + #result
  entry.result_lines = #result
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
    table.insert(lines, blocks.TOOL_PREFIX .. "[attached] " .. item.label)
  end
  for _, p in ipairs(problems) do
    table.insert(lines, "_not attached: " .. p .. "_")
  end
  blocks.insert(chat, lines)
end

return M
