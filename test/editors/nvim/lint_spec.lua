-- The plugin's bytecode writes no global variable (no state leaks out of its modules) and reads
-- only globals that exist (a misspelt local would read a nil global). Also: every module loads.
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)
local jutil = require("jit.util")
local bcnames = require("jit.vmdef").bcnames

--- Every global read or written by `fn` and the functions nested in it.
local function globals(fn, found)
  local pc = 0
  while true do
    local ins = jutil.funcbc(fn, pc)
    if not ins then
      break
    end
    local op = bit.band(ins, 0xff)
    local name = bcnames:sub(op * 6 + 1, op * 6 + 6):gsub(" ", "")
    if name == "GSET" or name == "GGET" then
      local key = jutil.funck(fn, -bit.rshift(ins, 16) - 1)
      table.insert(found, { op = name, key = key })
    end
    pc = pc + 1
  end
  local k = -1
  while true do
    local c = jutil.funck(fn, k)
    if c == nil then
      break
    end
    if type(c) == "proto" or type(c) == "function" then
      globals(c, found)
    end
    k = k - 1
  end
  return found
end

T.run(function()
  local root = vim.fn.fnamemodify(vim.env.AGENT_LSP_TEST_HELPERS, ":h:h:h:h") .. "/editors/nvim"
  local files = vim.fn.glob(root .. "/**/*.lua", false, true)
  T.truthy(#files >= 12, "the plugin's Lua files: " .. #files)
  local problems = {}
  for _, file in ipairs(files) do
    for _, g in ipairs(globals(assert(loadfile(file)), {})) do
      if g.op == "GSET" then
        table.insert(problems, file .. ": writes global " .. tostring(g.key))
      elseif _G[g.key] == nil then
        table.insert(problems, file .. ": reads unknown global " .. tostring(g.key))
      end
    end
  end
  T.eq(problems, {}, "global variables")
  for _, file in ipairs(vim.fn.glob(root .. "/lua/agent_lsp/*.lua", false, true)) do
    local mod = "agent_lsp." .. vim.fn.fnamemodify(file, ":t:r")
    require(mod == "agent_lsp.init" and "agent_lsp" or mod)
  end
end)
