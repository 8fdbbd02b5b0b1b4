-- Minimal init for the headless editor tests: this repo's plugin and Neovim's runtime only (no
-- user config, no packages, no shada or swap files), set up against the built server.
--
-- The vitest runner (test/editors/nvim.test.ts) sets:
--   AGENT_LSP_TEST_OPTIONS  path of a JSON file: the server's initializationOptions (fake provider)
--   AGENT_LSP_TEST_MODE     safety mode of new sessions (optional)
--   AGENT_LSP_TEST_CMD      JSON list replacing the server command (optional: a broken install)
local repo = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h:h")

local rtp = { repo .. "/editors/nvim", vim.fn.expand("$VIMRUNTIME") }
-- Keep the packaged library folder: it holds the tree-sitter parsers that 0.10's ftplugins start.
for _, dir in ipairs(vim.opt.runtimepath:get()) do
  if dir:match("/lib/nvim$") and vim.fn.isdirectory(dir .. "/parser") == 1 then
    table.insert(rtp, dir)
  end
end
vim.opt.runtimepath = rtp
-- No user packages, but the runtime's own: from 0.12 the runtime's plugin/netrwPlugin.vim does
-- `packadd netrw` from $VIMRUNTIME/pack/dist/opt, and an empty 'packpath' makes that E919.
vim.opt.packpath = { vim.fn.expand("$VIMRUNTIME") }
vim.o.swapfile = false
vim.o.shadafile = "NONE"
vim.o.more = false
vim.o.hidden = true

local function read_json(path)
  local f = assert(io.open(path, "r"), "cannot read " .. path)
  local text = f:read("*a")
  f:close()
  return vim.json.decode(text)
end

local opts = {
  cmd = { "node", repo .. "/server/dist/agent-lsp.js", "--stdio" },
  mode = vim.env.AGENT_LSP_TEST_MODE,
}
if vim.env.AGENT_LSP_TEST_CMD and vim.env.AGENT_LSP_TEST_CMD ~= "" then
  opts.cmd = vim.json.decode(vim.env.AGENT_LSP_TEST_CMD)
end
if vim.env.AGENT_LSP_TEST_OPTIONS and vim.env.AGENT_LSP_TEST_OPTIONS ~= "" then
  opts.init_options = read_json(vim.env.AGENT_LSP_TEST_OPTIONS)
end
-- plugin/ files are sourced after this init; load the commands now so setup can run here.
vim.cmd("runtime plugin/agent_lsp.lua")
assert(require("agent_lsp").setup(opts), "agent_lsp.setup failed")
