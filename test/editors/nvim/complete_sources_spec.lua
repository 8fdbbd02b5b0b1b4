-- With nvim-cmp and blink.cmp present (minimal fakes of their registration APIs), opening a chat
-- registers an "agent_lsp" source in each, once, and gives it to the chat buffer; asked as the
-- plugins ask, both complete #words, @files (.gitignore respected) and /commands in the input
-- with the same candidates as <C-x><C-u>, and nothing outside the input or the chat.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local fakes = vim.fn.fnamemodify(vim.env.AGENT_LSP_TEST_HELPERS, ":p:h") .. "/fakes"
vim.opt.runtimepath:prepend(fakes)

--- Types `text` as the input and returns the cursor: {1-based row, 0-based col, line}.
local function type_input(chat, text)
  local row = require("agent_lsp.render").prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, { text })
  vim.api.nvim_win_set_cursor(0, { row + 2, #text })
  return row + 2, #text, text
end

local function labels(items)
  local out = {}
  for _, item in ipairs(items) do
    table.insert(out, item.label)
  end
  return out
end

T.run(function()
  T.forbid_blocking_prompts()
  vim.fn.system({ "git", "init", "-q" }) -- project files come from git, .gitignore respected
  T.truthy(vim.v.shell_error == 0, "git init")
  local source_buf = T.open("notes.txt")
  local chat = T.open_chat()
  local cmp, blink = require("cmp"), require("blink.cmp")

  -- nvim-cmp: registered once, the chat buffer's only source.
  local source = T.truthy(cmp.sources.agent_lsp, "the nvim-cmp source is registered")
  T.eq(cmp.buffer_config[chat.buf], { sources = { { name = "agent_lsp" } } }, "and is the chat buffer's source")
  T.eq(source:get_trigger_characters(), { "#", "@", "/" }, "# @ / trigger it as you type")
  T.truthy(source:is_available(), "available in the chat")
  local row, col, line = type_input(chat, "look at @src/he")
  local got
  source:complete({ context = { bufnr = chat.buf, cursor = { row = row, col = col + 1 }, cursor_before_line = line } }, function(r)
    got = r
  end)
  T.eq(labels(got.items), { "@src/helper.txt" }, "nvim-cmp: @files")
  T.eq(got.items[1].textEdit.range, { start = { line = row - 1, character = 8 }, ["end"] = { line = row - 1, character = col } }, "replacing the @word")
  row, col, line = type_input(chat, "#buf")
  source:complete({ context = { bufnr = chat.buf, cursor = { row = row, col = col + 1 }, cursor_before_line = line } }, function(r)
    got = r
  end)
  T.eq(labels(got.items), require("agent_lsp.complete").items("#buf", chat), "the same candidates as <C-x><C-u>")
  T.truthy(#got.items >= 2, "#buffer and #buffers")

  -- blink.cmp: a provider by module, enabled for the chat's filetype, and only in chats.
  T.eq(blink.providers.agent_lsp, { name = "agent-lsp", module = "agent_lsp.blink_source" }, "the blink.cmp provider is added")
  T.eq(blink.per_filetype.markdown, { "agent_lsp" }, "for the chat's filetype")
  local provider = require(blink.providers.agent_lsp.module).new({}, blink.providers.agent_lsp)
  T.truthy(provider:enabled(), "enabled in the chat")
  row, col, line = type_input(chat, "/he")
  provider:get_completions({ bufnr = chat.buf, cursor = { row, col }, line = line }, function(r)
    got = r
  end)
  T.eq(labels(got.items), { "/help" }, "blink.cmp: /commands")
  row, col, line = type_input(chat, "see @")
  provider:get_completions({ bufnr = chat.buf, cursor = { row, col }, line = line }, function(r)
    got = r
  end)
  T.truthy(vim.tbl_contains(labels(got.items), "@notes.txt"), "blink.cmp: @files")
  T.truthy(not vim.tbl_contains(labels(got.items), "@build.log"), ".gitignore respected")

  -- Off a sigil word, in the transcript, or in another buffer: nothing.
  row, col, line = type_input(chat, "plain words")
  provider:get_completions({ bufnr = chat.buf, cursor = { row, col }, line = line }, function(r)
    got = r
  end)
  T.eq(got.items, {}, "no candidates off a #, @ or / word")
  provider:get_completions({ bufnr = chat.buf, cursor = { 1, 3 }, line = "# agent-lsp chat" }, function(r)
    got = r
  end)
  T.eq(got.items, {}, "none in the transcript")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(source_buf))
  T.eq(provider:enabled(), false, "blink: not enabled outside chats")
  T.eq(source:is_available(), false, "cmp: not available outside chats")

  -- A second chat registers nothing twice (the fakes assert it) and gets the source too.
  vim.cmd("AgentNew")
  local second
  T.wait("the second chat", function()
    second = require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf())
    return second ~= nil and second ~= chat
  end)
  T.eq(cmp.buffer_config[second.buf], { sources = { { name = "agent_lsp" } } }, "the new chat's source")
end)
