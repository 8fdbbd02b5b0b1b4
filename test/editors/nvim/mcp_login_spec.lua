-- A remote MCP server that needs a sign-in: the first need of the session (the chat asks for the
-- command list, then the turn) starts it. Neovim 0.10 opens the sign-in page from
-- window/showDocument (external) in the system browser (a recording stand-in for xdg-open here);
-- Neovim 0.7 cannot, and shows the window/showMessage that carries the address, which the user
-- opens (here: the message is written where the stand-in writes). The test's "user" approves at
-- that address; the turn then goes on with the server ready.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local show = vim.lsp.handlers["window/showMessage"]
  vim.lsp.handlers["window/showMessage"] = function(err, result, ctx, config)
    local url = result and result.message and result.message:match("open (http://127%.0%.0%.1:%d+/authorize%S+) in a browser")
    if url then
      local f = assert(io.open(vim.env.AGENT_LSP_TEST_BROWSER_LOG, "a"))
      f:write("message " .. url .. "\n")
      f:close()
    end
    return show(err, result, ctx, config)
  end
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "Use the remote server")
  T.wait("the answer after the sign-in", function()
    return T.text(chat.buf):find("Signed-in answer.", 1, true) ~= nil and not chat.busy
  end, 40000)
  T.contains(T.read_file(vim.env.AGENT_LSP_TEST_BROWSER_LOG), "/authorize?", "the sign-in page was opened")
end)
