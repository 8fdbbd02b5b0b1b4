---@mod agent_lsp.diff The diff review of a proposed file change.
---
--- One tab per change set: on top the agent's explanation, the files and the keys; below, on the
--- left the result (it starts as the current text; you may edit it) and on the right the agent's
--- proposal, in diff mode. Take hunks or whole files, move between files with ]f/[f, accept
--- everything left, or reject: the answer carries the result text of every file (`accepted`)
--- when it is a mix, and the server applies exactly that.

local config = require("agent_lsp.config")
local ra = require("agent_lsp.review_answer")
local hunks = require("agent_lsp.review_hunks")
local panel = require("agent_lsp.review_panel")
local rtext = require("agent_lsp.review_text")
local util = require("agent_lsp.util")

local M = {}

--- The labels of the two sides.
M.LABELS = { current = "current (your result)", proposed = "proposed" }

---@class agent_lsp.Review
---@field params table the agent/requestPermission params
---@field client_id integer
---@field done fun(result: table)
---@field index integer file being reviewed
---@field results table<integer, string> final text of the files finished
---@field drafts table<integer, string> text of the result window of files left unfinished
---@field states table<integer, string> "accepted"|"partial"|"declined" of finished files
---@field explanation string|nil what the agent said before proposing the change
---@field panel_buf integer the buffer of the top panel
---@field panel_win integer
---@field tab integer
---@field left integer window of the result
---@field right integer window of the proposal
---@field bufs integer[] the current file's buffers
---@field origin integer window to return to
---@field finished boolean
---@field switching boolean
---@field answer fun(result: table) answers the request once and closes the review

local to_lines = rtext.to_lines
local file_path, filetype_of = rtext.file_path, rtext.filetype_of

---@type table<integer, agent_lsp.Review> buffer of an open review (panel, either side) -> review
local by_buf = {}

local function help_line(review)
  local files = review.params.files
  local name = panel.display_name(files[review.index].uri)
  -- The keys are listed in the panel on top: a status line that long would be cut.
  return string.format("agent-lsp review %d/%d: %s", review.index, #files, name)
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
  for _, buf in ipairs(vim.list_extend({ review.panel_buf }, review.bufs or {})) do
    by_buf[buf] = nil
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

local show_file

--- The next file not finished yet after the current one (wrapping), or nil.
local function next_open(review)
  local n = #review.params.files
  for step = 1, n do
    local i = (review.index - 1 + step) % n + 1
    if not review.results[i] then
      return i
    end
  end
  return nil
end

--- Records `text` as the current file's result and moves on (or answers after the last file).
--- Finishing with hunks of the proposal not taken says so first; a result that would empty the
--- file (the proposal does not) is asked about first.
local function finish_file(review, text)
  local f = review.params.files[review.index]
  local result = text or ra.current_text(review)
  ra.confirm_empty(review, { [review.index] = result }, function()
    if not text then
      hunks.say_untaken(review, panel.display_name(f.uri))
    end
    review.results[review.index] = result
    review.states[review.index] = ra.state_of(f, result)
    local nxt = next_open(review)
    if nxt then
      show_file(review, nxt)
    else
      ra.answer_with(review, "allow_once")
    end
  end)
end

--- Takes the hunk under the cursor into the result whole, as the plugin computed it (not
--- `:diffget`, which 0.11's linematch splits), then moves to the next hunk not taken.
local function accept_hunk(review)
  hunks.take_at_cursor(review, config.options.keymaps.review.finish)
end

--- Takes every file not finished yet whole (the current one too); finished files keep their result.
local function accept_rest(review, option_id)
  for i, f in ipairs(review.params.files) do
    if not review.results[i] then
      review.results[i] = f.newText
    end
  end
  ra.answer_with(review, option_id)
end

local function move(review, delta)
  local n = #review.params.files
  if n == 1 then
    util.notify("this change has one file")
    return
  end
  ra.keep_draft(review)
  show_file(review, (review.index - 1 + delta) % n + 1)
end

local function set_keymaps(review, buf)
  local k = config.options.keymaps.review
  local maps = {
    { k.accept_all, function() accept_rest(review, "allow_once") end, "accept every file not finished yet" },
    { k.accept_always, function() accept_rest(review, "allow_always") end, "accept, and do not ask again" },
    { k.reject_all, function() answer(review, { optionId = "reject" }) end, "reject the whole change" },
    { k.reject_reason, function() ra.reject_with_reason(review) end, "reject, and tell the agent why (files you finished are kept)" },
    { k.quit, function() ra.quit(review) end, "reject and close (asks when you took hunks)" },
    { k.accept_hunk, function() accept_hunk(review) end, "take the hunk under the cursor" },
    { k.accept_file, function() finish_file(review, review.params.files[review.index].newText) end, "take this file whole" },
    { k.finish, function() finish_file(review) end, "finish this file with the hunks taken so far" },
    { k.next_file, function() move(review, 1) end, "next file" },
    { k.prev_file, function() move(review, -1) end, "previous file" },
  }
  for _, m in ipairs(maps) do
    util.map(buf, "n", m[1], m[2], "agent-lsp review: " .. m[3])
  end
end

--- Closing the tab by hand (or wiping a buffer) before answering is a rejection.
local function reject_on_wipe(review, buf)
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
end

local function review_buffer(review, label, lines, ft, modifiable)
  local f = review.params.files[review.index]
  local name = string.format("agent-lsp://review/%d/%s (%s)", review.index, panel.display_name(f.uri), label)
  local buf = util.scratch_buffer(name, nil)
  vim.bo[buf].bufhidden = "wipe"
  -- The fill is no undo step: `u` past your own edits must not undo the file to nothing.
  local levels = vim.bo[buf].undolevels
  vim.bo[buf].undolevels = -1
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].undolevels = levels
  vim.bo[buf].modifiable = modifiable
  by_buf[buf] = review
  if ft then
    vim.bo[buf].filetype = ft
  end
  set_keymaps(review, buf)
  reject_on_wipe(review, buf)
  return buf
end

show_file = function(review, index)
  review.switching = true
  review.index = index
  local f = review.params.files[index]
  local ft = filetype_of(file_path(f.uri))
  local result_lines = to_lines(ra.result_of(review, index))
  local new_lines = to_lines(f.newText)
  vim.api.nvim_set_current_tabpage(review.tab)
  vim.cmd("diffoff!")
  local previous = review.bufs or {}
  review.bufs = {
    review_buffer(review, "current", result_lines, ft, true),
    review_buffer(review, "proposed", new_lines, ft, false),
  }
  vim.api.nvim_win_set_buf(review.left, review.bufs[1])
  vim.api.nvim_win_set_buf(review.right, review.bufs[2])
  for _, buf in ipairs(previous) do
    by_buf[buf] = nil
    if vim.api.nvim_buf_is_valid(buf) then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
  end
  local status = help_line(review)
  panel.label_window(review.left, M.LABELS.current, status)
  panel.label_window(review.right, M.LABELS.proposed, status)
  for _, win in ipairs({ review.left, review.right }) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("diffthis")
    end)
    vim.wo[win].foldlevel = 99
  end
  panel.draw(review)
  vim.api.nvim_set_current_win(review.left)
  vim.api.nvim_win_set_cursor(review.left, { 1, 0 })
  -- Start on the first hunk: line 1 itself when it changed, else the next change.
  if vim.fn.diff_hlID(1, 1) == 0 then
    pcall(vim.cmd, "normal! ]c")
  end
  review.switching = false
end

--- The panel on top of the tab: the explanation, the files, the keys.
local function open_panel(review)
  review.panel_buf = panel.create()
  by_buf[review.panel_buf] = review
  set_keymaps(review, review.panel_buf)
  vim.cmd("topleft split")
  review.panel_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(review.panel_win, review.panel_buf)
  vim.wo[review.panel_win].winfixheight = true
  vim.wo[review.panel_win].wrap = true
  vim.wo[review.panel_win].number = false
  vim.wo[review.panel_win].statusline = "agent-lsp review: the change set"
end

--- What the agent said before proposing the change (its chat keeps the latest message).
local function explanation_of(client_id, session_id)
  local ok, chat = pcall(function()
    return require("agent_lsp.chat").get(client_id, session_id)
  end)
  return ok and chat and chat.explanation or nil
end

--- Keys typed before the review opened and still waiting to be read were meant for where the
--- user was typing (the chat, a file), never for the review: they are read off and dropped.
---@return integer dropped how many
local function drop_typeahead()
  local dropped = 0
  while vim.fn.getchar(1) ~= 0 do
    vim.fn.getchar(0)
    dropped = dropped + 1
  end
  return dropped
end

--- Opens the review of an agent/requestPermission that carries `files`. It opens in normal mode
--- (typing in insert mode must not go into the result) and takes no key typed before it opened.
---@param opts {params: table, client_id: integer, done: fun(result: table)}
function M.review(opts)
  vim.cmd("stopinsert")
  local dropped = drop_typeahead()
  if dropped > 0 then
    util.notify(string.format("the review of a change opened: %d key(s) you typed just before were not taken", dropped))
  end
  ---@type agent_lsp.Review
  local review = {
    params = opts.params,
    client_id = opts.client_id,
    done = opts.done,
    index = 1,
    results = {},
    drafts = {},
    states = {},
    explanation = explanation_of(opts.client_id, opts.params.sessionId),
    origin = vim.api.nvim_get_current_win(),
    finished = false,
    switching = false,
  }
  review.answer = function(result)
    answer(review, result)
  end
  vim.cmd("tabnew")
  review.tab = vim.api.nvim_get_current_tabpage()
  review.left = vim.api.nvim_get_current_win()
  local scratch = vim.api.nvim_get_current_buf()
  vim.cmd("rightbelow vsplit")
  review.right = vim.api.nvim_get_current_win()
  open_panel(review)
  show_file(review, 1)
  if vim.api.nvim_buf_is_valid(scratch) and scratch ~= review.bufs[1] and scratch ~= review.bufs[2] then
    pcall(vim.api.nvim_buf_delete, scratch, { force = true })
  end
  review.untrack = require("agent_lsp.permission").track(opts.client_id, opts.params.sessionId, function()
    answer(review, { optionId = "reject" })
  end)
  return review
end

--- The open review a buffer belongs to (its panel or either side), if any.
---@param buf integer
---@return agent_lsp.Review|nil
function M.review_of(buf)
  local review = by_buf[buf]
  return review and not review.finished and review or nil
end

--- Whether a buffer is a review's (for tests and statuslines).
---@return boolean
function M.is_review_buffer(buf)
  return vim.api.nvim_buf_get_name(buf):match("^agent%-lsp://review/") ~= nil
end

return M
