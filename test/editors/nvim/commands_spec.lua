-- The chat completes `/` commands from agent/listCommands (built-in and MCP prompts) with
-- <C-x><C-o>, and an MCP prompt command sends the prompt's text as the user's message.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

--- Types `text` as the chat's input, puts the cursor at its end and completes with <C-x><C-o>.
local function complete(chat, text)
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))
  local row = require("agent_lsp.render").prompt_row(chat) + 1
  vim.api.nvim_buf_set_lines(chat.buf, row, -1, false, { text })
  vim.api.nvim_win_set_cursor(0, { row + 1, #text })
  T.feed("a<C-x><C-o><Esc>")
  return vim.api.nvim_buf_get_lines(chat.buf, row, row + 1, false)[1]
end

T.run(function()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.eq(vim.bo[chat.buf].omnifunc, "v:lua.require'agent_lsp.chat'.complete_command", "the chat's omnifunc")
  T.wait("the session's commands", function()
    return chat.commands ~= nil
  end, 30000)
  local names = {}
  for _, c in ipairs(chat.commands) do
    names[c.name] = c
  end
  T.truthy(names.help and names.undo, "built-in commands are listed")
  T.truthy(names.mcp__notes__review, "the MCP server's prompt is listed: " .. vim.inspect(vim.tbl_keys(names)))

  local items = require("agent_lsp.chat").complete_command(0, "/mcp__no")
  T.eq(#items, 1, "one command starts with /mcp__no")
  T.eq(items[1].word, "/mcp__notes__review", "the completed word")
  T.eq(items[1].info, "/mcp__notes__review <code> [focus]", "its usage")
  T.eq(items[1].menu, "Review code (mcp:notes)", "its description")
  T.eq(complete(chat, "/mcp__no"), "/mcp__notes__review", "<C-x><C-o> completes the MCP prompt's command")
  T.eq(complete(chat, "/hel"), "/help", "<C-x><C-o> completes a built-in command")
  vim.api.nvim_win_set_cursor(0, { 1, 3 })
  T.eq(require("agent_lsp.chat").complete_command(1, ""), -3, "no completion in the transcript")
  complete(chat, "say /he")
  T.eq(require("agent_lsp.chat").complete_command(1, ""), -3, "no completion after the first word")

  T.send(chat, '/mcp__notes__review "x = 1" naming')
  T.wait("the prompt's text and the answer", function()
    local text = T.text(chat.buf)
    return text:find("Please review this code for naming:", 1, true) ~= nil and text:find("Reviewed.", 1, true) ~= nil and not chat.busy
  end, 30000)
end)
