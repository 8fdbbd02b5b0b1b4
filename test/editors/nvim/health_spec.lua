-- :checkhealth agent_lsp: Neovim version, the server runs, its doctor report, the providers.
-- With T.data.broken the server command does not exist, and the report must say ERROR. With
-- T.data.live, live = true makes the doctor call the model; :AgentDoctor live does the same.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

T.run(function()
  if T.data.live then
    -- live = true: the doctor calls the model once (the fake, through ANTHROPIC_BASE_URL).
    local opts = vim.deepcopy(require("agent_lsp.config").options)
    opts.live = true
    require("agent_lsp").setup(opts)
    vim.cmd("checkhealth agent_lsp")
    local text = T.text(0)
    T.log(text)
    T.contains(text, "Live checks:", "the live checks ran")
    T.contains(text, "live call to anthropic/", "a call to the configured model")
    T.contains(text, "the model answered", "which answered")
    T.not_contains(text, "ERROR", "no error")
    vim.cmd("tabonly")
    vim.cmd("AgentDoctor live")
    T.wait("the :AgentDoctor report", function()
      return vim.api.nvim_buf_get_name(0):match("agent%-lsp://doctor") ~= nil
    end, 30000)
    T.contains(T.text(0), "the model answered", ":AgentDoctor live makes the call too")
    return
  end
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
