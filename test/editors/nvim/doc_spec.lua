-- :help agent_lsp documents every command, option, keymap and API function, and the help file
-- has valid, unique tags (:helptags fails on duplicates).
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  local src = vim.api.nvim_get_runtime_file("doc/agent_lsp.txt", false)[1]
  T.truthy(src, "doc/agent_lsp.txt is on the runtimepath")
  -- helptags writes a tags file: do it on a copy, outside the repository.
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir .. "/doc", "p")
  T.write_file(dir .. "/doc/agent_lsp.txt", T.read_file(src))
  vim.cmd("helptags " .. vim.fn.fnameescape(dir .. "/doc"))
  vim.opt.runtimepath:prepend(dir)

  local function has_help(tag)
    local ok, err = pcall(vim.cmd, "help " .. tag)
    T.truthy(ok, "no help for " .. tag .. ": " .. tostring(err))
    T.contains(vim.api.nvim_buf_get_name(0), "agent_lsp.txt", "help for " .. tag)
  end
  has_help("agent_lsp")
  T.contains(vim.api.nvim_get_current_line(), "*agent_lsp*", ":help agent_lsp lands on the introduction")
  T.contains(vim.api.nvim_get_current_line(), "INTRODUCTION", ":help agent_lsp lands on the introduction")
  local commands = vim.api.nvim_get_commands({})
  local count = 0
  for name in pairs(commands) do
    if name:match("^Agent") then
      count = count + 1
      has_help(":" .. name)
    end
  end
  T.truthy(count >= 7, "the plugin's commands are defined")
  local config = require("agent_lsp.config")
  for _, name in ipairs(config.NAMES) do
    has_help("agent_lsp-option-" .. name)
  end
  local doc = T.read_file(src)
  for group, keys in pairs(config.defaults.keymaps) do
    for key in pairs(keys) do
      T.contains(doc, "`" .. key .. "`", "keymaps." .. group .. "." .. key .. " documented")
    end
  end
  for name, value in pairs(require("agent_lsp")) do
    if type(value) == "function" then
      has_help("agent_lsp." .. name .. "()")
    end
  end
end)
