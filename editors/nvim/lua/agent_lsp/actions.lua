---@mod agent_lsp.actions Code actions and prompts about a buffer's text.
---
--- The server's "Ask agent ..." code actions run here on the client side, so they go into the
--- chat's session and stream into the chat. `menu` asks the server for its actions with every
--- diagnostic on the lines (from any source: Neovim 0.10+ sends a server only its own from
--- vim.lsp.buf.code_action, and the agent should also fix what a linter reported).

local chat_mod = require("agent_lsp.chat")
local client = require("agent_lsp.client")
local util = require("agent_lsp.util")

local M = {}

local function byte_len_at(line, col)
  local b = line:byte(col + 1)
  if not b then
    return 0
  end
  return b >= 0xF0 and 4 or b >= 0xE0 and 3 or b >= 0xC0 and 2 or 1
end

--- The LSP range for lines `line1`..`line2` of `bufnr`: the exact characters when they are
--- the last charwise visual selection, else the whole lines.
---@param bufnr integer
---@param line1 integer 1-based
---@param line2 integer 1-based
---@param encoding string
---@return table range
function M.selection_range(bufnr, line1, line2, encoding)
  local s = vim.api.nvim_buf_get_mark(bufnr, "<")
  local e = vim.api.nvim_buf_get_mark(bufnr, ">")
  if vim.fn.visualmode() == "v" and s[1] == line1 and e[1] == line2 then
    local last = vim.api.nvim_buf_get_lines(bufnr, e[1] - 1, e[1], false)[1] or ""
    local end_col = math.min(e[2] + byte_len_at(last, e[2]), #last)
    return { start = util.position(bufnr, s[1] - 1, s[2], encoding), ["end"] = util.position(bufnr, e[1] - 1, end_col, encoding) }
  end
  return util.line_range(bufnr, line1, line2, encoding)
end

--- Runs a code-action command in the client's current chat session and shows the chat.
--- Also the client-side handler of agent.fix / agent.explain / agent.refactor / agent.tests.
--- The server answers executeCommand when the turn starts unless asked to `wait`; the chat
--- asks to wait (the request is asynchronous here), so its answer still ends the chat's turn.
---@param command table LSP Command {title, command, arguments}
---@param client_id integer
function M.execute(command, client_id)
  chat_mod.with_chat(client_id, function(chat)
    local args = vim.deepcopy(command.arguments or {})
    args[1] = type(args[1]) == "table" and args[1] or {}
    args[1].sessionId = chat.session_id
    args[1].wait = true
    chat_mod.run_turn(chat, {
      label = command.title or command.command,
      method = "workspace/executeCommand",
      params = { command = command.command, arguments = args },
      busy_hint = "the agent is still answering in this chat; cancel with :AgentCancel first",
      show = true,
    })
  end)
end

--- The agent's code actions for the cursor line or lines `line1`..`line2`, in vim.ui.select.
---@param opts {bufnr: integer|nil, line1: integer|nil, line2: integer|nil, range: boolean|nil}
function M.menu(opts)
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  if not util.is_file_buffer(bufnr) then
    util.warn("code actions need a file buffer")
    return
  end
  local id = client.ensure(bufnr)
  if not id then
    return
  end
  local enc = client.encoding(id)
  local range
  if opts.range then
    range = M.selection_range(bufnr, opts.line1, opts.line2, enc)
  else
    local cur = vim.api.nvim_win_get_cursor(0)
    local pos = util.position(bufnr, cur[1] - 1, cur[2], enc)
    range = { start = pos, ["end"] = pos }
  end
  local diagnostics = util.lsp_diagnostics(bufnr, range.start.line, range["end"].line, enc)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = range,
    context = { diagnostics = diagnostics },
  }
  client.request(id, "textDocument/codeAction", params, function(err, result)
    if err then
      util.error("code actions failed: " .. util.error_text(err))
      return
    end
    local actions = {}
    for _, a in ipairs(result or {}) do
      -- Literal CodeActions carry a command; bare Commands are the command themselves.
      local command = type(a.command) == "table" and a.command or a
      if type(command.command) == "string" then
        table.insert(actions, command)
      end
    end
    if #actions == 0 then
      util.notify("no agent actions here: select some text, or put the cursor on a diagnostic")
      return
    end
    vim.ui.select(actions, {
      prompt = "Agent actions",
      kind = "agent_lsp.actions",
      format_item = function(c)
        return c.title
      end,
    }, function(choice)
      if choice then
        M.execute(choice, id)
      end
    end)
  end)
end

--- Sends `text` to the chat with the buffer (and lines `line1`..`line2` when a range is given)
--- as context, and shows the chat.
---@param opts {text: string, bufnr: integer|nil, line1: integer|nil, line2: integer|nil, range: boolean|nil}
function M.ask(opts)
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local text = vim.trim(opts.text or "")
  if text == "" then
    util.warn("usage: :AgentAsk {question}  (with a visual selection, it is sent as context)")
    return
  end
  local from_chat = chat_mod.by_buffer(bufnr)
  local id = from_chat and from_chat.client_id or client.ensure(bufnr)
  if not id then
    return
  end
  local context
  if util.is_file_buffer(bufnr) then
    context = { uri = vim.uri_from_bufnr(bufnr) }
    if opts.range then
      context.range = M.selection_range(bufnr, opts.line1, opts.line2, client.encoding(id))
    end
  end
  chat_mod.with_chat(id, function(chat)
    chat_mod.show(chat, false)
    chat_mod.prompt(chat, { text = text, context = context })
  end)
end

return M
