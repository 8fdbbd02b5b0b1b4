-- Window ergonomics: :AgentChat toggles; :AgentNew reuses the chat window; the vsplit is 0.4
-- of the editor wide; role headers are marked (not the model's own "## Plan"); ]] / [[ jump
-- between turns; <C-s> sends from insert mode; the float layout opens a floating window.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function wins()
  return #vim.api.nvim_tabpage_list_wins(0)
end

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local file_win = vim.api.nvim_get_current_win()
  local chat = T.open_chat()
  T.eq(wins(), 2, "the chat opens in a split")
  local chat_win = vim.api.nvim_get_current_win()
  T.eq(vim.api.nvim_win_get_width(chat_win), math.floor(vim.o.columns * 0.4), "0.4 of the editor wide")

  vim.cmd("AgentChat")
  T.eq(wins(), 1, ":AgentChat again hides the chat")
  T.eq(vim.api.nvim_get_current_win(), file_win, "back in the file")
  vim.cmd("AgentChat")
  T.eq(wins(), 2, "and shows it again")
  T.eq(vim.api.nvim_get_current_buf(), chat.buf, "in the chat")
  vim.api.nvim_set_current_win(file_win)
  vim.cmd("AgentChat")
  T.eq(wins(), 1, "from the file window it hides it too")
  vim.cmd("AgentChat")

  -- Two turns; the model's own heading is not a role header.
  T.send(chat, "First question")
  T.wait_idle(chat)
  T.send(chat, "Second question")
  T.wait_idle(chat)
  local render = require("agent_lsp.render")
  local lines = vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false)
  local you = render.role_rows(chat, "you")
  T.eq(#you, 2, "two turns marked")
  T.eq(lines[you[1] + 1], "## You", "the first header")
  T.eq(lines[you[2] + 2], "Second question", "the second turn's prompt")
  T.eq(#render.role_rows(chat, "agent"), 2, "two answers marked")
  for _, row in ipairs(vim.list_extend(vim.deepcopy(you), render.role_rows(chat, "agent"))) do
    T.truthy(lines[row + 1] ~= "## Plan", "the model's ## Plan is no role header")
  end
  T.contains(T.text(chat.buf), "## Plan", "the model's heading is in the transcript")

  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(chat.buf), 0 })
  T.feed("[[")
  T.eq(vim.api.nvim_win_get_cursor(0)[1], you[2] + 1, "[[ goes to the last turn")
  T.feed("[[")
  T.eq(vim.api.nvim_win_get_cursor(0)[1], you[1] + 1, "[[ again to the first")
  T.feed("]]")
  T.eq(vim.api.nvim_win_get_cursor(0)[1], you[2] + 1, "]] to the next")

  -- <C-s> sends from insert mode.
  local row = render.prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, { "Sent from insert mode" })
  vim.api.nvim_win_set_cursor(0, { row + 2, 0 })
  T.feed("A<C-s>")
  T.wait_idle(chat)
  T.contains(T.text(chat.buf), "## You\nSent from insert mode", "the prompt was sent")

  -- :AgentNew shows the new session in the same window.
  chat_win = vim.api.nvim_get_current_win()
  vim.cmd("AgentNew")
  local new_chat
  T.wait("the new session's chat", function()
    new_chat = require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf())
    return new_chat ~= nil and new_chat ~= chat
  end)
  T.eq(wins(), 2, ":AgentNew reuses the chat window")
  T.eq(vim.api.nvim_get_current_win(), chat_win, "the same window")

  -- The float layout.
  vim.cmd("AgentChat")
  T.eq(wins(), 1, "hidden")
  require("agent_lsp.config").options.chat.layout = "float"
  vim.cmd("AgentChat")
  local win = vim.api.nvim_get_current_win()
  T.eq(vim.api.nvim_win_get_buf(win), new_chat.buf, "the chat in the float")
  T.truthy(vim.api.nvim_win_get_config(win).relative ~= "", "a floating window")
end)
