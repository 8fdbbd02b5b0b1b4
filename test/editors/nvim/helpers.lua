-- Helpers for the headless Neovim specs: waiting, assertions, driving the chat, and the runner
-- that turns a spec into an exit code (0 passed, 1 failed with the reason on stderr).
local T = {}

--- Per-test data from the vitest side (JSON in $AGENT_LSP_TEST_DATA).
T.data = {}
if vim.env.AGENT_LSP_TEST_DATA and vim.env.AGENT_LSP_TEST_DATA ~= "" then
  T.data = vim.json.decode(vim.env.AGENT_LSP_TEST_DATA)
end

function T.log(msg)
  io.stderr:write("[spec] " .. msg .. "\n")
end

local function fail(msg)
  error(msg, 0)
end

--- Waits (processing events) until `cond()` is true; fails with `what` after `timeout` ms.
function T.wait(what, cond, timeout)
  local ok = vim.wait(timeout or 15000, function()
    local good, res = pcall(cond)
    return good and res
  end, 20)
  if not ok then
    fail("timed out waiting for " .. what)
  end
end

function T.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    fail(string.format("%s:\n  expected %s\n  got      %s", what or "values differ", vim.inspect(expected), vim.inspect(actual)))
  end
end

function T.truthy(value, what)
  if not value then
    fail(what or "expected a true value")
  end
  return value
end

function T.contains(haystack, needle, what)
  if not haystack:find(needle, 1, true) then
    fail(string.format("%s: %q not found in:\n%s", what or "missing text", needle, haystack))
  end
end

function T.not_contains(haystack, needle, what)
  if haystack:find(needle, 1, true) then
    fail(string.format("%s: %q found in:\n%s", what or "unexpected text", needle, haystack))
  end
end

function T.text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

function T.read_file(path)
  local f = assert(io.open(path, "r"))
  local s = f:read("*a")
  f:close()
  return s
end

function T.write_file(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

--- Feeds keys as typed and executes them now (mappings apply).
function T.feed(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "x", false)
end

--- Opens a file of the project and waits until the agent client is attached to it.
function T.open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  T.wait("the agent client on " .. path, function()
    return T.client_id(buf) ~= nil
  end)
  return buf
end

--- The agent-lsp client attached to `buf`, if any.
function T.client_id(buf)
  local all = (vim.lsp.get_clients or vim.lsp.get_active_clients)()
  for _, c in ipairs(all) do
    if c.name == "agent-lsp" and vim.lsp.buf_is_attached(buf, c.id) then
      return c.id
    end
  end
  return nil
end

--- :AgentChat, then waits for the chat buffer; returns the chat.
function T.open_chat()
  vim.cmd("AgentChat")
  local chat
  T.wait("the chat buffer", function()
    chat = require("agent_lsp.chat").by_buffer(vim.api.nvim_get_current_buf())
    return chat ~= nil
  end)
  return chat
end

--- Types `text` under the prompt line and presses the send key in normal mode.
function T.send(chat, text)
  vim.api.nvim_set_current_win(vim.fn.bufwinid(chat.buf))
  local row = require("agent_lsp.render").prompt_row(chat)
  vim.api.nvim_buf_set_lines(chat.buf, row + 1, -1, false, vim.split(text, "\n", { plain = true }))
  vim.cmd("stopinsert")
  T.feed("<CR>")
end

--- The chat's input: the text under the prompt line.
function T.input(chat)
  local row = require("agent_lsp.render").prompt_row(chat)
  return table.concat(vim.api.nvim_buf_get_lines(chat.buf, row + 1, -1, false), "\n")
end

--- Waits until the chat's turn is over.
function T.wait_idle(chat, timeout)
  T.wait("the turn to end", function()
    return not chat.busy
  end, timeout)
end

--- Waits until the chat shows `text` (plain).
function T.wait_text(chat, text, timeout)
  T.wait("the chat to show " .. text, function()
    return T.text(chat.buf):find(text, 1, true) ~= nil
  end, timeout)
end

--- Replaces vim.ui.select with a picker that chooses the first item matching `pattern`
--- (by its formatted text); records every prompt it was shown.
function T.stub_select(pattern)
  local seen = {}
  vim.ui.select = function(items, opts, on_choice)
    local format = opts.format_item or tostring
    local texts = {}
    for _, item in ipairs(items) do
      local text = format(item) -- one value: format_item may return gsub's two
      table.insert(texts, text)
    end
    table.insert(seen, { prompt = opts.prompt, items = texts })
    for i, item in ipairs(items) do
      if texts[i]:find(pattern) then
        vim.schedule(function()
          on_choice(item, i)
        end)
        return
      end
    end
    vim.schedule(function()
      on_choice(nil, nil)
    end)
  end
  return seen
end

--- Records every error vim.notify shows, in the returned list. Headless Neovim turns a printed
--- error into an exception: with `silent` they are only recorded.
function T.record_errors(silent)
  local errors = {}
  local notify = vim.notify
  vim.notify = function(msg, level, opts)
    if level == vim.log.levels.ERROR then
      table.insert(errors, msg)
      if silent then
        return
      end
    end
    return notify(msg, level, opts)
  end
  return errors
end

--- Fails the spec when a prompt would block headless Neovim (inputlist, input).
function T.forbid_blocking_prompts()
  vim.fn.inputlist = function(lines)
    error("unexpected blocking prompt: " .. table.concat(lines, " / "), 0)
  end
end

--- Runs a spec function; exits 0 when it passes, 1 with the error on stderr when it fails.
function T.run(spec)
  local ok, err = xpcall(spec, debug.traceback)
  if ok then
    io.stderr:write("[spec] passed\n")
    vim.cmd("qall!")
  else
    io.stderr:write("[spec] FAILED: " .. tostring(err) .. "\n")
    vim.cmd("cquit 1")
  end
end

return T
