-- :checkhealth agent_lsp: Neovim version, the server runs, its doctor report, the providers.
-- With T.data.broken the server command does not exist, and the report must say ERROR.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  vim.cmd("checkhealth agent_lsp")
  local text = T.text(0)
  T.log(text)
  if T.data.broken then
    T.contains(text, "ERROR", "a missing server is an error")
    T.contains(text, "is not executable", "and the report says why")
    return
  end
  T.not_contains(text, "ERROR", "no error in the health report")
  local v = vim.version()
  T.contains(text, string.format("Neovim %d.%d.%d", v.major, v.minor, v.patch), "the Neovim version")
  T.contains(text, "runs: agent-lsp 0.", "the server binary runs")
  T.contains(text, "Providers:", "the doctor report")
  T.contains(text, "anthropic:", "the configured provider")
  T.contains(text, "http://127.0.0.1", "its base_url from setup()")
end)
