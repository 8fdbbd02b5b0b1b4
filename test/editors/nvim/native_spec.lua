-- A provider-native call (Anthropic's bash and text editor, run as our execute_command and
-- read_file) shows as the model wrote it: the approval and the fold name `bash`, the fold lists
-- the model's own input keys. A deferred MCP tool (unwrapped from tool_call) shows as itself.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

--- The fold of the tool call whose header matches `pattern`: its header and detail lines.
local function fold(buf, pattern)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, line in ipairs(lines) do
    if line:find(pattern) then
      local out = { line }
      for j = i + 1, #lines do
        if not lines[j]:match("^  │") then
          break
        end
        table.insert(out, lines[j])
      end
      return table.concat(out, "\n")
    end
  end
  error("no tool call matching " .. pattern .. " in:\n" .. T.text(buf), 0)
end

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  local seen = T.stub_select("^Yes$")
  T.send(chat, "Run it natively")
  T.wait_text(chat, "Native done.")
  T.eq(#seen, 1, "the command was asked about")
  T.contains(seen[1].prompt, "agent-lsp wants to: bash", "the approval names the tool the model called")
  T.not_contains(seen[1].prompt, "execute_command", "not the tool that runs it")

  local bash = fold(chat.buf, "^▸ %[done%] bash")
  T.contains(bash, "  │ command: echo native", "the model's input key")
  T.not_contains(bash, "timeout_secs", "not the rewritten input")
  local view = fold(chat.buf, "^▸ %[done%] str_replace_based_edit_tool")
  T.contains(view, "  │ command: view", "the text editor's command")
  T.contains(view, "  │ path: notes.txt", "and path, as written")
  T.not_contains(view, "start_line", "not read_file's input")

  -- An MCP tool called through tool_call reaches the editor as the real tool, without modelName.
  local render = require("agent_lsp.render")
  render.update(chat, { kind = "tool_call", id = "toolu_mcp", name = "mcp__notes__add", title = "mcp__notes__add", input = { a = 1, b = 2 }, status = "pending" })
  local mcp = fold(chat.buf, "^▸ %[pending%] mcp__notes__add$")
  T.contains(mcp, "  │ a: 1\n  │ b: 2", "its own arguments")
  T.eq(render.tool_title({ name = "edit_file", title = "Edit a.txt", modelName = "str_replace_based_edit_tool" }), "str_replace_based_edit_tool · Edit a.txt", "a title beside the model's name")
end)
