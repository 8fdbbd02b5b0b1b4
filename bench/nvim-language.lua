-- Neovim's share of a find_references round trip (bench/language.ts): the plugin's
-- agent/languageService handler against the toy server, beside the same request sent straight
-- to the toy client, interleaved. Prints "plugin_ms <median> direct_ms <median>" on stderr.
-- Run: nvim --headless -u NONE -c "luafile bench/nvim-language.lua" with BENCH_REPO, BENCH_NODE,
-- BENCH_FILE (a .toy file) in the environment.
local repo, node, file = vim.env.BENCH_REPO, vim.env.BENCH_NODE, vim.env.BENCH_FILE
vim.opt.runtimepath:prepend(repo .. "/editors/nvim")
local RUNS, WARMUP = 60, 10

local function median(xs)
  table.sort(xs)
  local n = #xs
  return n % 2 == 1 and xs[(n + 1) / 2] or (xs[n / 2] + xs[n / 2 + 1]) / 2
end

local function now_ms()
  return vim.loop.hrtime() / 1e6
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = "toy", cmd = { node, repo .. "/test/helpers/toy-lsp/server.mjs", "--stdio" }, root_dir = vim.fn.fnamemodify(file, ":h") })
  vim.lsp.buf_attach_client(buf, id)
  assert(vim.wait(10000, function()
    local c = vim.lsp.get_client_by_id(id)
    return c and c.server_capabilities and c.server_capabilities.referencesProvider
  end, 5), "the toy server did not start")
  local client = vim.lsp.get_client_by_id(id)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 0, character = 4 }, context = { includeDeclaration = true } }
  local service = require("agent_lsp.language_service")
  local function via_plugin()
    local result = service.handle({ method = "textDocument/references", params = params })
    assert(type(result) == "table" and #result > 0, "the plugin answered nothing")
  end
  local function direct()
    local done = false
    require("agent_lsp.util").request(client, "textDocument/references", params, function()
      done = true
    end, buf)
    assert(vim.wait(5000, function()
      return done
    end, 1), "no answer")
  end
  local plugin_ms, direct_ms = {}, {}
  for i = 1, WARMUP + RUNS do
    local t0 = now_ms()
    via_plugin()
    local t1 = now_ms()
    direct()
    local t2 = now_ms()
    if i > WARMUP then
      table.insert(plugin_ms, t1 - t0)
      table.insert(direct_ms, t2 - t1)
    end
  end
  io.stderr:write(string.format("plugin_ms %.3f direct_ms %.3f\n", median(plugin_ms), median(direct_ms)))
end)
if not ok then
  io.stderr:write("bench failed: " .. tostring(err) .. "\n")
  vim.cmd("cquit 1")
end
vim.cmd("qall!")
