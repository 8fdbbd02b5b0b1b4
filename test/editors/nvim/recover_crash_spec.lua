-- One chat window per tab, whatever stopped the server. Killed (a crash): the plugin starts a
-- server for the chat's own project (never "."), offers the session, and loads it again in the
-- same window. Stopped like :LspStop does: the chat says so, and :AgentChat from the code window,
-- a project file opened (autostart) or :AgentRetry in the chat brings it back in place. On 0.12,
-- `:lsp restart` starts a new client, which takes the chat back by itself.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function chat_windows()
  local out = {}
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if require("agent_lsp.chat").by_buffer(vim.api.nvim_win_get_buf(win)) then
      table.insert(out, win)
    end
  end
  return out
end

--- The whole text of `path`, or nil (a process may end while it is read).
local function slurp(path)
  local f = io.open(path)
  if not f then
    return nil
  end
  local text = f:read("*a")
  f:close()
  return text
end

--- The pid of this Neovim's agent-lsp server (its child process running the bundle).
local function server_pid()
  local me = tostring(vim.fn.getpid())
  for _, dir in ipairs(vim.fn.glob("/proc/[0-9]*", 0, 1)) do
    local stat, cmd = slurp(dir .. "/stat"), slurp(dir .. "/cmdline")
    local line = cmd and cmd:gsub("%z", " ") or ""
    if stat and stat:match("^%d+ %b() %S+ (%d+)") == me and line:find("agent-lsp.js", 1, true) and line:find("--stdio", 1, true) then
      return tonumber(dir:match("%d+$"))
    end
  end
end

--- Stops client `id` as :LspStop does (Client:stop() from 0.11, where stop_client is deprecated).
local function stop(id)
  if vim.fn.has("nvim-0.11") == 1 then
    vim.lsp.get_client_by_id(id):stop()
  else
    vim.lsp.stop_client(id)
  end
end

--- Stops `chat`'s server as :LspStop does and waits until the chat says so; the old client id.
local function stop_server(chat)
  local old = chat.client_id
  stop(old)
  T.wait("the chat to say the server stopped", function()
    return chat.detached ~= nil
  end, 15000)
  T.contains(T.text(chat.buf), "the agent-lsp server stopped", "the chat says so")
  return old
end

--- Waits until the chat window shows the session on a client other than `old`, with `text`.
local function wait_back(win, old, text)
  local chat
  T.wait("the chat back on a new server", function()
    chat = require("agent_lsp.chat").by_buffer(vim.api.nvim_win_get_buf(win))
    return chat and chat.client_id ~= old and not chat.detached and T.text(chat.buf):find(text, 1, true) ~= nil
  end, 30000)
  T.eq(#chat_windows(), 1, "still one chat window in the tab")
  T.eq(vim.lsp.get_client_by_id(chat.client_id).config.root_dir, vim.fn.getcwd(), "the new server serves the chat's project")
  return chat
end

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  local win = vim.fn.bufwinid(chat.buf)
  local session = chat.session_id
  T.send(chat, "First")
  T.wait_idle(chat)
  T.wait_text(chat, "One.")

  -- A crash: the server is killed. The session is offered and loaded again, in the same window.
  local offered = T.stub_select("^Load the session again")
  local old = chat.client_id
  vim.loop.kill(T.truthy(server_pid(), "the server's pid"), 9)
  chat = wait_back(win, old, "One.")
  T.eq(#offered, 1, "the crashed session was offered")
  T.contains(offered[1].prompt, "was killed", "the question says what happened")
  T.eq(chat.session_id, session, "the same session")
  T.send(chat, "Second")
  T.wait_idle(chat)
  T.wait_text(chat, "Two.")

  -- Stopped as :LspStop does: the chat says so; :AgentChat from the code window beside it brings
  -- it back in place (no second chat window).
  old = stop_server(chat)
  local code_win = vim.fn.bufwinid(vim.fn.bufnr("notes.txt"))
  T.truthy(code_win ~= -1, "the code window")
  vim.api.nvim_set_current_win(code_win)
  vim.cmd("AgentChat")
  chat = wait_back(win, old, "Two.")
  T.send(chat, "Third")
  T.wait_idle(chat)
  T.wait_text(chat, "Three.")

  -- Stopped again, then a file of the project is opened: the server autostart starts for it
  -- takes the chat back by itself.
  old = stop_server(chat)
  vim.api.nvim_set_current_win(code_win)
  vim.cmd("edit other.txt")
  chat = wait_back(win, old, "Three.")
  T.send(chat, "Fourth")
  T.wait_idle(chat)
  T.wait_text(chat, "Four.")

  -- Stopped again: :AgentRetry in the stopped chat brings it back and sends the last prompt again.
  old = stop_server(chat)
  vim.api.nvim_set_current_win(win)
  vim.cmd("AgentRetry")
  chat = wait_back(win, old, "Four.")
  T.wait_text(chat, "Five.")
  T.wait_idle(chat)

  if vim.fn.has("nvim-0.12") == 1 then
    old = chat.client_id
    vim.cmd("lsp restart agent-lsp")
    chat = wait_back(win, old, "Five.")
    T.send(chat, "Sixth")
    T.wait_idle(chat)
    T.wait_text(chat, "Six.")
  end
end)
