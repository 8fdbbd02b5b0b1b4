---@mod agent_lsp.diff The diff review of a proposed file change.
---
--- A tab per review: on the left the result (it starts as the current text; you may edit it),
--- on the right the agent's proposal, in diff mode. Accept all, reject all, or take hunks one
--- by one into the result and finish: the answer then carries the result text of every file
--- (`accepted`), and the server applies exactly that. Several files are reviewed one after the
--- other in the same tab.

local config = require("agent_lsp.config")
local util = require("agent_lsp.util")

local M = {}

---@class agent_lsp.Review
---@field params table the agent/requestPermission params
---@field client_id integer
---@field done fun(result: table)
---@field index integer file being reviewed
---@field results string[] final text of the files already reviewed
---@field tab integer
---@field left integer window of the result
---@field right integer window of the proposal
---@field bufs integer[] the current file's buffers
---@field origin integer window to return to
---@field finished boolean
---@field switching boolean

--- Text as lines without "\r" line ends, and how to put them back together.
local function to_lines(text)
  local crlf = text:find("\r\n", 1, true) ~= nil
  if crlf then
    text = text:gsub("\r\n", "\n")
  end
  local lines, eol = util.split_lines(text)
  return lines, { crlf = crlf, eol = eol }
end

local function from_lines(lines, shape)
  local nl = shape.crlf and "\r\n" or "\n"
  return table.concat(lines, nl) .. (shape.eol and nl or "")
end

local function lines_equal(a, b)
  if #a ~= #b then
    return false
  end
  for i = 1, #a do
    if a[i] ~= b[i] then
      return false
    end
  end
  return true
end

local function file_path(uri)
  local ok, path = pcall(vim.uri_to_fname, uri)
  return ok and path or uri
end

local function filetype_of(path)
  local existing = vim.fn.bufnr(path)
  if existing > 0 and vim.bo[existing].filetype ~= "" then
    return vim.bo[existing].filetype
  end
  -- vim.filetype.match takes a table from 0.8 on (0.7's sets the buffer's filetype instead).
  if util.has("0.8") and vim.filetype and vim.filetype.match then
    local ok, ft = pcall(vim.filetype.match, { filename = path })
    return ok and ft or nil
  end
  return nil
end

local function help_line(review)
  local k = config.options.keymaps.review
  local hints = {}
  for _, pair in ipairs({
    { k.accept_hunk, "take hunk" },
    { k.finish, "finish" },
    { k.accept_all, "accept all" },
    { k.accept_always, "always" },
    { k.reject_all, "reject" },
  }) do
    if pair[1] then
      table.insert(hints, pair[1] .. " " .. pair[2])
    end
  end
  local files = review.params.files
  local name = vim.fn.fnamemodify(file_path(files[review.index].uri), ":~:.")
  return string.format("agent-lsp review %d/%d: %s  —  %s", review.index, #files, name, table.concat(hints, " · "))
end

local function close(review)
  review.finished = true
  if review.untrack then
    review.untrack()
  end
  if vim.api.nvim_tabpage_is_valid(review.tab) then
    -- Leave the tab before closing it, so the user lands where the review was started.
    if #vim.api.nvim_list_tabpages() > 1 then
      vim.api.nvim_set_current_tabpage(review.tab)
      vim.cmd("tabclose")
    end
  end
  for _, buf in ipairs(review.bufs or {}) do
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
  end
  if vim.api.nvim_win_is_valid(review.origin) then
    vim.api.nvim_set_current_win(review.origin)
  end
end

--- Answers the request once and closes the review.
local function answer(review, result)
  if review.finished then
    return
  end
  close(review)
  review.done(result)
end

--- The answer after every file was reviewed: nothing taken is a rejection, everything taken is a
--- plain yes, and a mix names the final text of every file.
local function finish_all(review)
  local files = review.params.files
  local all_new, all_old = true, true
  local accepted = {}
  for i, f in ipairs(files) do
    local text = review.results[i]
    all_new = all_new and text == f.newText
    all_old = all_old and text == f.oldText
    table.insert(accepted, { uri = f.uri, text = text })
  end
  if all_old then
    answer(review, { optionId = "reject" })
  elseif all_new then
    answer(review, { optionId = "allow_once" })
  else
    answer(review, { optionId = "allow_once", accepted = accepted })
  end
end

local show_file

--- Records the current file's result and moves on (or answers after the last file).
local function finish_file(review)
  local f = review.params.files[review.index]
  local old_lines, shape = to_lines(f.oldText)
  local new_lines = to_lines(f.newText)
  local result = vim.api.nvim_buf_get_lines(review.bufs[1], 0, -1, false)
  if lines_equal(result, new_lines) then
    review.results[review.index] = f.newText
  elseif lines_equal(result, old_lines) then
    review.results[review.index] = f.oldText
  else
    local _, new_shape = to_lines(f.newText)
    review.results[review.index] = from_lines(result, { crlf = shape.crlf, eol = new_shape.eol })
  end
  if review.index < #review.params.files then
    show_file(review, review.index + 1)
  else
    finish_all(review)
  end
end

--- Takes the hunk under the cursor into the result, then moves to the next hunk.
local function accept_hunk(review)
  local win = vim.api.nvim_get_current_win()
  local ok, err = pcall(vim.cmd, win == review.right and "diffput" or "diffget")
  if not ok then
    util.warn("no hunk here to take: " .. tostring(err))
    return
  end
  vim.cmd("diffupdate")
  pcall(vim.cmd, "normal! ]c")
end

--- Takes this file and every later one whole; files already finished keep their result.
local function accept_rest(review, option_id)
  local files = review.params.files
  for i = review.index, #files do
    review.results[i] = files[i].newText
  end
  local whole = true
  local accepted = {}
  for i, f in ipairs(files) do
    whole = whole and review.results[i] == f.newText
    table.insert(accepted, { uri = f.uri, text = review.results[i] })
  end
  answer(review, whole and { optionId = option_id } or { optionId = option_id, accepted = accepted })
end

local function set_keymaps(review, buf)
  local k = config.options.keymaps.review
  util.map(buf, "n", k.accept_all, function()
    accept_rest(review, "allow_once")
  end, "agent-lsp review: accept the proposal (this file and the next ones)")
  util.map(buf, "n", k.accept_always, function()
    accept_rest(review, "allow_always")
  end, "agent-lsp review: accept, and do not ask again")
  util.map(buf, "n", k.reject_all, function()
    answer(review, { optionId = "reject" })
  end, "agent-lsp review: reject the proposal")
  util.map(buf, "n", k.quit, function()
    answer(review, { optionId = "reject" })
  end, "agent-lsp review: reject and close")
  util.map(buf, "n", k.accept_hunk, function()
    accept_hunk(review)
  end, "agent-lsp review: take the hunk under the cursor")
  util.map(buf, "n", k.finish, function()
    finish_file(review)
  end, "agent-lsp review: finish with the hunks taken so far")
end

local function review_buffer(review, label, lines, ft, modifiable)
  local f = review.params.files[review.index]
  local name = string.format("agent-lsp://review/%d/%s (%s)", review.index, vim.fn.fnamemodify(file_path(f.uri), ":~:."), label)
  local buf = util.scratch_buffer(name, nil)
  vim.bo[buf].bufhidden = "wipe"
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = modifiable
  if ft then
    vim.bo[buf].filetype = ft
  end
  set_keymaps(review, buf)
  -- Closing the tab by hand (or wiping a buffer) before answering is a rejection.
  vim.api.nvim_create_autocmd("BufWipeout", {
    buffer = buf,
    once = true,
    callback = function()
      if not review.finished and not review.switching then
        vim.schedule(function()
          answer(review, { optionId = "reject" })
        end)
      end
    end,
  })
  return buf
end

show_file = function(review, index)
  review.switching = true
  review.index = index
  local f = review.params.files[index]
  local ft = filetype_of(file_path(f.uri))
  local old_lines = to_lines(f.oldText)
  local new_lines = to_lines(f.newText)
  vim.api.nvim_set_current_tabpage(review.tab)
  vim.cmd("diffoff!")
  local previous = review.bufs or {}
  review.bufs = {
    review_buffer(review, "current", old_lines, ft, true),
    review_buffer(review, "proposed", new_lines, ft, false),
  }
  vim.api.nvim_win_set_buf(review.left, review.bufs[1])
  vim.api.nvim_win_set_buf(review.right, review.bufs[2])
  for _, buf in ipairs(previous) do
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
  end
  local status = help_line(review):gsub("%%", "%%%%")
  for _, win in ipairs({ review.left, review.right }) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("diffthis")
    end)
    vim.wo[win].statusline = status
    vim.wo[win].foldlevel = 99
  end
  vim.api.nvim_set_current_win(review.left)
  vim.api.nvim_win_set_cursor(review.left, { 1, 0 })
  -- Start on the first hunk: line 1 itself when it changed, else the next change.
  if vim.fn.diff_hlID(1, 1) == 0 then
    pcall(vim.cmd, "normal! ]c")
  end
  review.switching = false
end

--- Opens the review of an agent/requestPermission that carries `files`.
---@param opts {params: table, client_id: integer, done: fun(result: table)}
function M.review(opts)
  ---@type agent_lsp.Review
  local review = {
    params = opts.params,
    client_id = opts.client_id,
    done = opts.done,
    index = 1,
    results = {},
    origin = vim.api.nvim_get_current_win(),
    finished = false,
    switching = false,
  }
  vim.cmd("tabnew")
  review.tab = vim.api.nvim_get_current_tabpage()
  review.left = vim.api.nvim_get_current_win()
  local scratch = vim.api.nvim_get_current_buf()
  vim.cmd("rightbelow vsplit")
  review.right = vim.api.nvim_get_current_win()
  show_file(review, 1)
  if vim.api.nvim_buf_is_valid(scratch) and scratch ~= review.bufs[1] and scratch ~= review.bufs[2] then
    pcall(vim.api.nvim_buf_delete, scratch, { force = true })
  end
  review.untrack = require("agent_lsp.permission").track(opts.client_id, opts.params.sessionId, function()
    answer(review, { optionId = "reject" })
  end)
  util.notify(help_line(review))
  return review
end

--- The open review in the current tab, if any (for tests and statuslines).
---@return boolean
function M.is_review_buffer(buf)
  return vim.api.nvim_buf_get_name(buf):match("^agent%-lsp://review/") ~= nil
end

return M
