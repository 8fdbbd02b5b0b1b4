-- Diagnostics with their source of truth. The toy language server is configured as a user's
-- config would (started on FileType toy). The model asks for the diagnostics of broken.toy,
-- which Neovim has not loaded: the plugin opens it unseen (hidden, unlisted, with its filetype),
-- the toy server attaches and publishes, the error reaches the model, and the buffer is gone
-- again, agent-lsp never attached to it. Then notes.txt, which no server serves: "unknown",
-- never "no errors".
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  T.forbid_blocking_prompts()
  -- 0.7 has vim.filetype.add, but uses it only with g:do_filetype_lua.
  if vim.fn.has("nvim-0.8") == 1 then
    vim.filetype.add({ extension = { toy = "toy" } })
  else
    vim.cmd("autocmd BufRead,BufNewFile *.toy setfiletype toy")
  end
  local attached = {}
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "toy",
    callback = function(args)
      local cfg = { name = "toy", cmd = { T.data.node, T.data.toy_server, "--stdio" }, root_dir = vim.fn.getcwd() }
      local id = vim.lsp.start and vim.lsp.start(cfg, { bufnr = args.buf }) or vim.lsp.start_client(cfg)
      if id and not vim.lsp.start then
        vim.lsp.buf_attach_client(args.buf, id)
      end
      table.insert(attached, args.buf)
    end,
  })
  T.open("notes.txt")
  local chat = T.open_chat()
  local broken = vim.fn.getcwd() .. "/broken.toy"
  T.send(chat, "Any errors in broken.toy?")
  T.wait_idle(chat, 30000)
  T.wait_text(chat, "One error.")
  T.eq(#attached, 1, "the toy server was started for the unseen buffer")
  T.eq(vim.fn.bufloaded(broken), 0, "the unseen buffer is gone again")
  T.eq(vim.fn.buflisted(broken), 0, "and was never listed")
  T.send(chat, "And in other.txt?")
  T.wait_idle(chat)
  T.wait_text(chat, "Unknown then.")
  T.eq(vim.fn.bufloaded(vim.fn.getcwd() .. "/other.txt"), 0, "other.txt is not left loaded")
end)
