---@mod agent_lsp.chat_keys The chat buffer's keys: send, cancel, history, undo, turns, completion.

local config = require("agent_lsp.config")
local render = require("agent_lsp.render")
local util = require("agent_lsp.util")
local windows = require("agent_lsp.chat_window")

local K = {}

--- The prompt line: where your input starts, and the keys that send and cancel it.
---@return string
function K.prompt_text()
  local keys = config.options.keymaps.chat
  local hints = {}
  if keys.send or keys.send_insert then
    local send = {}
    for _, k in ipairs({ keys.send, keys.send_insert }) do
      if k then
        table.insert(send, k)
      end
    end
    table.insert(hints, table.concat(send, "/") .. " sends")
  end
  if keys.cancel then
    table.insert(hints, keys.cancel .. " cancels")
  end
  return "─── Prompt" .. (#hints > 0 and (" (" .. table.concat(hints, ", ") .. ")") or "") .. " ───"
end

--- Types `key` with its built-in meaning (and the count typed before the mapping).
local function builtin(key)
  local count = vim.v.count > 0 and tostring(vim.v.count) or ""
  vim.api.nvim_feedkeys(count .. vim.api.nvim_replace_termcodes(key, true, false, true), "n", false)
end

--- `u` and redo in the input take back and redo your typing only (agent_lsp.input_undo); the
--- retry key (<C-r> by default, Vim's redo) retries elsewhere in the chat.
local function set_undo_keymaps(chat, keys, M)
  local input_undo = require("agent_lsp.input_undo")
  local function in_input_or(count_sign, otherwise)
    return function()
      if input_undo.in_input(chat) then
        input_undo.step(chat, count_sign * vim.v.count1)
      else
        otherwise()
      end
    end
  end
  util.map(chat.buf, "n", keys.undo, in_input_or(-1, function()
    builtin(keys.undo)
  end), "agent-lsp: undo your typing in the input")
  local retry = function()
    M.retry(chat)
  end
  if keys.redo and keys.redo == keys.retry then
    util.map(chat.buf, "n", keys.retry, in_input_or(1, retry), "agent-lsp: redo in the input; elsewhere send the last prompt again")
    return
  end
  util.map(chat.buf, "n", keys.redo, in_input_or(1, function()
    builtin(keys.redo)
  end), "agent-lsp: redo your typing in the input")
  util.map(chat.buf, "n", keys.retry, retry, "agent-lsp: send the last prompt again")
end

--- Sets the chat buffer's keys (config `keymaps.chat`).
---@param chat agent_lsp.Chat
---@param M table agent_lsp.chat, whose functions the keys run
function K.set(chat, M)
  local keys = config.options.keymaps.chat
  util.map(chat.buf, "n", keys.send, function()
    M.send_input(chat)
  end, "agent-lsp: send the prompt")
  util.map(chat.buf, { "n", "i" }, keys.send_insert, function()
    vim.cmd("stopinsert")
    M.send_input(chat)
  end, "agent-lsp: send the prompt (insert mode too)")
  set_undo_keymaps(chat, keys, M)
  util.map(chat.buf, "n", keys.edit_last, function()
    M.edit(chat)
  end, "agent-lsp: edit the last prompt (sending it replaces the last exchange)")
  for _, walk in ipairs({ { keys.history_prev, -1, "<Up>" }, { keys.history_next, 1, "<Down>" } }) do
    util.map(chat.buf, { "n", "i" }, walk[1], function()
      if not require("agent_lsp.prompt_history").walk(chat, walk[2]) then
        vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(walk[3], true, false, true), "ni", false)
      end
    end, "agent-lsp: prompt history")
  end
  util.map(chat.buf, "i", keys.complete, function()
    -- On a #word, @path or /command in the input: complete it; anywhere else the key is itself.
    local row, col = unpack(vim.api.nvim_win_get_cursor(0))
    local word = require("agent_lsp.complete").word_start(vim.api.nvim_get_current_line(), col)
    local keys_typed = keys.complete
    if row - 1 > render.prompt_row(chat) and word >= 0 then
      keys_typed = "<C-x><C-u>"
    end
    -- "i": before what is already typed ahead, so keys typed quickly after it come after it.
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys_typed, true, false, true), "ni", false)
  end, "agent-lsp: complete #words, @files and /commands")
  util.map(chat.buf, "n", keys.next_turn, function()
    render.jump_turn(chat, 1)
  end, "agent-lsp: next turn")
  util.map(chat.buf, "n", keys.prev_turn, function()
    render.jump_turn(chat, -1)
  end, "agent-lsp: previous turn")
  util.map(chat.buf, { "n", "i" }, keys.cancel, function()
    M.cancel(chat)
  end, "agent-lsp: cancel the running turn")
  util.map(chat.buf, "n", keys.close, function()
    for _, win in ipairs(windows.all(chat.buf)) do
      if #vim.api.nvim_list_wins() > 1 then
        vim.api.nvim_win_close(win, false)
      end
    end
  end, "agent-lsp: close the chat window")
end

return K
