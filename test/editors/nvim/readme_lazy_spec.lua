-- The README's lazy.nvim spec works on a fresh machine: lazy.nvim never runs `build` for a local
-- `dir` plugin on its first start, so the spec's `init` builds the server (npm install, whose
-- prepare script builds the bundle) when the bundle is missing, once. Its `cmd` list names every
-- command the plugin defines, so each one loads the plugin.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local repo = vim.fn.fnamemodify(vim.env.AGENT_LSP_TEST_HELPERS, ":p:h:h:h:h")
  local readme = T.read_file(repo .. "/README.md")
  local block = T.truthy(readme:match("With%s+%[lazy%.nvim%].-```lua\n(.-)\n```"), "the README's lazy.nvim spec")
  local spec = assert(loadstring("return " .. block))()
  T.truthy(type(spec.init) == "function", "the spec has an init")

  -- A clone whose bundle was never built: npm install runs its prepare script.
  local clone = vim.fn.tempname()
  vim.fn.mkdir(clone, "p")
  T.write_file(clone .. "/package.json", vim.json.encode({
    name = "agent-lsp-clone",
    version = "0.0.0",
    scripts = { prepare = "mkdir -p server/dist && echo built > server/dist/agent-lsp.js && echo run >> prepare-runs" },
  }))
  vim.env.NPM_CONFIG_AUDIT = "false"
  vim.env.NPM_CONFIG_FUND = "false"
  vim.env.NPM_CONFIG_UPDATE_NOTIFIER = "false"
  local notes = {}
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  spec.init({ dir = clone })
  T.eq(vim.fn.filereadable(clone .. "/server/dist/agent-lsp.js"), 1, "the first start built the server:\n" .. table.concat(notes, "\n"))
  spec.init({ dir = clone })
  T.eq(T.read_file(clone .. "/prepare-runs"), "run\n", "built once, not on every start")

  require("agent_lsp").setup({})
  for name in pairs(vim.api.nvim_get_commands({})) do
    if name:match("^Agent") then
      T.truthy(vim.tbl_contains(spec.cmd, name), "the spec's cmd list names :" .. name)
    end
  end
end)
