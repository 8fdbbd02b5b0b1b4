-- A buffer's project root: a repository's marker beats a `.agent-lsp` nearer the file, another
-- language server's root beats a `.agent-lsp` further up, and a stray `.agent-lsp` in the home
-- folder (or `/`) is never a root: a file there falls back to the current directory. The server
-- of each root gets that root.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function root_of(buf)
  return require("agent_lsp.client").root_for(buf)
end

local function server_root(buf)
  return vim.lsp.get_client_by_id(T.client_id(buf)).config.root_dir
end

T.run(function()
  local cwd = vim.fn.getcwd()
  local root = require("agent_lsp.root")

  local x = T.open("repo/sub/x.txt")
  T.eq(root_of(x), cwd .. "/repo", "the repository's .git beats the .agent-lsp nearer the file")
  T.eq(server_root(x), cwd .. "/repo", "the server of the repository")

  -- Another language server whose root holds the file, running before it opens.
  local cfg = { name = "toy", cmd = { T.data.node, T.data.toy_server, "--stdio" }, root_dir = cwd .. "/pkg" }
  local toy = vim.fn.has("nvim-0.11") == 1 and vim.lsp.start(cfg, { attach = false }) or vim.lsp.start_client(cfg)
  T.wait("the toy server", function()
    local c = vim.lsp.get_client_by_id(toy)
    return c and c.server_capabilities and c.server_capabilities.referencesProvider
  end)
  local y = T.open("pkg/src/y.toy")
  T.eq(root_of(y), cwd .. "/pkg", "the language server's root beats the .agent-lsp further up")

  local a = T.open(T.data.home .. "/notes/a.txt")
  T.eq(root_of(a), cwd, "a stray .agent-lsp in the home folder is no root: the current directory")
  T.eq(server_root(a), cwd, "and so is the server's")
  T.truthy(not root.usable(T.data.home), "the home folder is never a root")
  T.truthy(not root.usable("/"), "nor is /")
  -- From /usr/share the marker "proc" is found only in /, which is never a root.
  T.eq(root.find("/usr/share", { "proc" }), nil, "a marker in / is ignored")
  T.eq(root.find("/usr/share", { "share" }), "/usr", "a marker elsewhere is found")
end)
