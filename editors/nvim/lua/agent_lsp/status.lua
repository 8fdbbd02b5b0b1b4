---@mod agent_lsp.status Busy state: the chat's spinner and the statusline summary.
---
--- From send to the first token, while a tool runs and while an approval waits, the prompt line
--- of the chat carries a spinner and what the agent is doing; `status()` returns the same state
--- for statuslines (lualine and friends).

local util = require("agent_lsp.util")

local M = {}

M.ns = vim.api.nvim_create_namespace("agent_lsp_status")

local FRAMES = { "⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏" }
local INTERVAL_MS = 120

---@class agent_lsp.Status
---@field running boolean a turn is running
---@field mode string|nil safety mode of the session
---@field model string|nil model of the session
---@field tokens integer tokens in and out so far in this session (as this Neovim saw them)
---@field cost number|nil cost so far in this session, when the model's price is known
---@field pending_approval string|nil what waits for your answer (a review or a question)
---@field activity string|nil what the spinner says ("waiting for the model", "running: ...")

--- What the agent is doing now, in words; nil when there is nothing to wait for.
---@param chat table agent_lsp.Chat
---@return string|nil
function M.activity(chat)
  if chat.pending_approval then
    return "waiting for your approval: " .. chat.pending_approval
  end
  if not chat.busy then
    return nil
  end
  for _, entry in pairs(chat.tools or {}) do
    if entry.turn == chat.turn and (entry.status == "running" or entry.status == "pending") then
      return "running: " .. entry.title
    end
  end
  if not chat.answering then
    return "waiting for the model"
  end
  return nil
end

local function draw(chat)
  if not vim.api.nvim_buf_is_valid(chat.buf) then
    return
  end
  vim.api.nvim_buf_clear_namespace(chat.buf, M.ns, 0, -1)
  local text = M.activity(chat)
  if not text then
    return
  end
  local row = require("agent_lsp.render").prompt_row(chat)
  local frame = FRAMES[(chat.spin_frame or 0) % #FRAMES + 1]
  vim.api.nvim_buf_set_extmark(chat.buf, M.ns, row, 0, { virt_text = { { frame .. " " .. text, "DiagnosticInfo" } }, virt_text_pos = "eol" })
end

local function stop_timer(chat)
  if chat.spin_timer then
    chat.spin_timer:stop()
    chat.spin_timer:close()
    chat.spin_timer = nil
  end
end

--- Redraws the spinner after a change of state, and runs its timer only while it shows.
---@param chat table agent_lsp.Chat
function M.refresh(chat)
  util.try("drawing the busy state", draw, chat)
  if M.activity(chat) and vim.api.nvim_buf_is_valid(chat.buf) then
    if not chat.spin_timer then
      chat.spin_timer = util.uv.new_timer()
      chat.spin_timer:start(INTERVAL_MS, INTERVAL_MS, vim.schedule_wrap(function()
        if not M.activity(chat) or not vim.api.nvim_buf_is_valid(chat.buf) then
          stop_timer(chat)
          return
        end
        chat.spin_frame = (chat.spin_frame or 0) + 1
        pcall(draw, chat)
      end))
    end
  else
    stop_timer(chat)
  end
end

--- Notes an agent/update: the first token, a tool's state, the session's usage.
---@param chat table agent_lsp.Chat
---@param update table
function M.on_update(chat, update)
  if update.kind == "text" or update.kind == "thought" then
    chat.answering = true
  elseif update.kind == "tool_call" then
    -- The model's next message starts after its tools: wait for its first token again.
    chat.answering = false
  elseif update.kind == "usage" then
    chat.tokens = (chat.tokens or 0) + (tonumber(update.inputTokens) or 0) + (tonumber(update.outputTokens) or 0)
    if type(update.sessionCost) == "number" then
      chat.cost = update.sessionCost
    elseif type(update.cost) == "number" then
      chat.cost = (chat.cost or 0) + update.cost
    end
  end
  M.refresh(chat)
end

--- The state of a chat for statuslines; a table of nils and zeros without a chat.
---@param chat table|nil agent_lsp.Chat
---@return agent_lsp.Status
function M.of(chat)
  if not chat then
    return { running = false, tokens = 0 }
  end
  return {
    running = chat.busy == true,
    mode = chat.mode,
    model = chat.model,
    tokens = chat.tokens or 0,
    cost = chat.cost,
    pending_approval = chat.pending_approval,
    activity = M.activity(chat),
  }
end

return M
