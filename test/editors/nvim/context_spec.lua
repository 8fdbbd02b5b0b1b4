-- Context from the chat: #buffer (unsaved text), #selection, #diagnostics (any source),
-- #viewport and @file reach the model as attachments, each shown as one folded line; completion
-- offers #words, project files (.gitignore respected) and slash commands; /file picks a file.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.forbid_blocking_prompts()
  vim.fn.system({ "git", "init", "-q" })
  T.truthy(vim.v.shell_error == 0, "git init")
  local buf = T.open("notes.txt")
  vim.api.nvim_buf_set_lines(buf, 0, 1, false, { "unsaved first line" })
  T.feed("2GVj<Esc>")
  local ns = vim.api.nvim_create_namespace("a_linter")
  vim.diagnostic.set(ns, buf, { { lnum = 2, col = 0, message = "third line looks odd", severity = vim.diagnostic.severity.WARN, source = "mylint" } })
  local chat = T.open_chat()

  local complete = require("agent_lsp.complete")
  T.eq(complete.items("#bu", chat), { "#buffer", "#buffers" }, "# words")
  local files = complete.items("@", chat)
  T.truthy(vim.tbl_contains(files, "@src/helper.txt"), "project files: " .. table.concat(files, " "))
  T.truthy(not vim.tbl_contains(files, "@build.log"), ".gitignore respected")
  T.truthy(vim.tbl_contains(complete.items("/he", chat), "/help"), "slash commands")
  T.eq(vim.bo[chat.buf].completefunc, "AgentLspComplete", "the chat's completefunc")
  local row = require("agent_lsp.render").prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, { "see @src/he" })
  vim.api.nvim_win_set_cursor(0, { row + 2, #"see @src/he" })
  T.eq(vim.fn.AgentLspComplete(1, ""), #"see ", "the completed word starts at its @")
  T.feed("A<Tab><Esc>")
  T.eq(vim.api.nvim_buf_get_lines(chat.buf, row + 1, row + 2, false)[1], "see @src/helper.txt", "<Tab> completes the @path")
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, { "" })

  -- /file puts the picked file into the input.
  T.stub_select("helper")
  T.send(chat, "/file")
  T.wait("the picked file in the input", function()
    return T.text(chat.buf):find("@src/helper.txt", 1, true) ~= nil
  end)
  row = require("agent_lsp.render").prompt_row(chat)
  T.eq(vim.api.nvim_buf_get_lines(chat.buf, row + 1, -1, false), { "@src/helper.txt " }, "the input holds the file")

  T.send(chat, "Look at #buffer #selection #diagnostics #viewport @src/helper.txt #buffer:nope")
  T.wait_idle(chat)
  local text = T.text(chat.buf)
  for _, label in ipairs({
    "▸ [attached] buffer notes.txt (3 lines)",
    "▸ [attached] selection notes.txt:2-3",
    "▸ [attached] diagnostics notes.txt (1)",
    "▸ [attached] viewport notes.txt:1-3",
    "▸ [attached] file src/helper.txt",
    "_not attached: no buffer named nope_",
  }) do
    T.contains(text, label, "the attachment line")
  end
end)
