---@mod agent_lsp.review_hunks The hunks of a file in the diff review, as the plugin computes them.
---
--- `gh` takes a whole hunk of the plugin's own diff between the result (left) and the proposal
--- (right), not what `:diffget` takes: from Neovim 0.11 the default 'diffopt' has linematch,
--- which splits "changed lines plus an added line" into pieces, so `:diffget` would take one piece
--- and leave the added line behind. The hunks are computed like 'diffopt' without linematch
--- (same algorithm, indent heuristic when set), so they match what 0.7 to 0.10 show.

local util = require("agent_lsp.util")

local M = {}

---@class agent_lsp.Hunk
---@field a integer first line in the result (when `a_count` is 0: the line after which)
---@field a_count integer
---@field b integer first line in the proposal (when `b_count` is 0: the line after which)
---@field b_count integer

--- The diff function: `vim.text.diff` from 0.10 (where `vim.diff` is its old name), else `vim.diff`.
local function diff_fn()
  return (vim.text and vim.text.diff) or vim.diff
end

local function as_text(lines)
  if #lines == 0 then
    return ""
  end
  return table.concat(lines, "\n") .. "\n"
end

--- The options of the user's 'diffopt' the hunks follow (never its linematch).
local function diff_options()
  local opts = { result_type = "indices", algorithm = "myers" }
  for _, item in ipairs(vim.split(vim.o.diffopt, ",", { plain = true })) do
    local algorithm = item:match("^algorithm:(%w+)$")
    if algorithm then
      opts.algorithm = algorithm
    elseif item == "indent-heuristic" then
      opts.indent_heuristic = true
    end
  end
  return opts
end

--- The hunks between the result's lines and the proposal's.
---@param result string[]
---@param proposal string[]
---@return agent_lsp.Hunk[]
function M.compute(result, proposal)
  local hunks = {}
  for _, h in ipairs(diff_fn()(as_text(result), as_text(proposal), diff_options())) do
    table.insert(hunks, { a = h[1], a_count = h[2], b = h[3], b_count = h[4] })
  end
  return hunks
end

--- The hunk at `line` of one side ("a": the result, "b": the proposal). A hunk with no lines on
--- that side shows as filler lines above the line after it (below the last line at the end).
---@param hunks agent_lsp.Hunk[]
---@param side "a"|"b"
---@param line integer
---@return agent_lsp.Hunk|nil
function M.at(hunks, side, line)
  local count = side .. "_count"
  for _, h in ipairs(hunks) do
    if h[count] > 0 and line >= h[side] and line < h[side] + h[count] then
      return h
    end
  end
  for _, h in ipairs(hunks) do
    if h[count] == 0 and h[side] + 1 == line then
      return h
    end
  end
  for _, h in ipairs(hunks) do
    if h[count] == 0 and h[side] == line then
      return h
    end
  end
  return nil
end

--- The line of one side where the cursor goes for hunk `h` (`last`: that side's line count).
---@param h agent_lsp.Hunk
---@param side "a"|"b"
---@param last integer
---@return integer
function M.line_of(h, side, last)
  if h[side .. "_count"] > 0 then
    return h[side]
  end
  return math.max(1, math.min(h[side] + 1, last))
end

--- The first hunk at or after `line` of one side, else the first one (wrapping), else nil.
---@param hunks agent_lsp.Hunk[]
---@param side "a"|"b"
---@param line integer
---@param last integer that side's line count
---@return agent_lsp.Hunk|nil
function M.next_from(hunks, side, line, last)
  for _, h in ipairs(hunks) do
    if M.line_of(h, side, last) >= line then
      return h
    end
  end
  return hunks[1]
end

--- Takes hunk `h` into the result buffer: its result lines become the proposal's.
---@param result_buf integer
---@param proposal string[]
---@param h agent_lsp.Hunk
function M.take(result_buf, proposal, h)
  local lines = {}
  for i = h.b, h.b + h.b_count - 1 do
    table.insert(lines, proposal[i])
  end
  -- A hunk with no result lines goes in after line `a`; else it replaces its lines.
  local first = h.a_count > 0 and h.a - 1 or h.a
  vim.api.nvim_buf_set_lines(result_buf, first, first + h.a_count, false, lines)
end

local function buf_lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

--- The hunks not taken yet in the file under review (between its result and its proposal).
---@param review agent_lsp.Review
---@return agent_lsp.Hunk[]
function M.left(review)
  return M.compute(buf_lines(review.bufs[1]), buf_lines(review.bufs[2]))
end

--- Says how many hunks of the proposal the file being finished leaves untaken (nothing when
--- none), before its result is written.
---@param review agent_lsp.Review
---@param name string the file's name as the review shows it
function M.say_untaken(review, name)
  local n = #M.left(review)
  if n > 0 then
    util.notify(string.format("%s: finished with %d hunk%s of the proposal not taken", name, n, n == 1 and "" or "s"))
  end
end

--- `gh`: takes the hunk under the cursor whole (from either window), then moves the cursor to
--- the next hunk not taken (wrapping), or says that none is left.
---@param review agent_lsp.Review
---@param finish_key string|false the key that finishes the file, for the message
function M.take_at_cursor(review, finish_key)
  local win = vim.api.nvim_get_current_win()
  local side = win == review.right and "b" or "a"
  local proposal = buf_lines(review.bufs[2])
  local h = M.at(M.compute(buf_lines(review.bufs[1]), proposal), side, vim.api.nvim_win_get_cursor(win)[1])
  if not h then
    util.warn("no hunk here to take")
    return
  end
  M.take(review.bufs[1], proposal, h)
  vim.cmd("diffupdate")
  local left = M.left(review)
  if #left == 0 then
    util.notify(type(finish_key) == "string" and string.format("every hunk taken: %s finishes the file", finish_key) or "every hunk taken")
    return
  end
  local last = vim.api.nvim_buf_line_count(vim.api.nvim_win_get_buf(win))
  local nxt = M.next_from(left, side, h[side], last)
  vim.api.nvim_win_set_cursor(win, { M.line_of(nxt, side, last), 0 })
end

return M
