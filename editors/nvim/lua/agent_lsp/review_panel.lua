---@mod agent_lsp.review_panel The top window of a diff review: explanation, files, keys.
---
--- The review tab shows, above the two diff windows, what the agent said before proposing the
--- change, every file of the change set with its state, and every key of the review.

local config = require("agent_lsp.config")
local util = require("agent_lsp.util")

local M = {}

--- The state marks of the file list.
M.MARKS = { pending = "[ ]", accepted = "[x]", partial = "[~]", declined = "[-]" }

---@param uri string
---@return string path relative to the cwd (or the uri when it is not a file)
function M.display_name(uri)
  local ok, path = pcall(vim.uri_to_fname, uri)
  return vim.fn.fnamemodify(ok and path or uri, ":~:.")
end

--- Every key of the review, in the order a user needs them.
---@return string
function M.keys_hint()
  local k = config.options.keymaps.review
  local hints = { "]c/[c hunks" }
  for _, pair in ipairs({
    { k.accept_hunk, "take hunk" },
    { k.accept_file, "take file" },
    { k.finish, "finish file" },
    { k.next_file, "next file" },
    { k.prev_file, "previous file" },
    { k.accept_all, "accept all left" },
    { k.accept_always, "always" },
    { k.reject_reason, "reject with a reason" },
    { k.reject_all, "reject" },
    { k.quit, "quit" },
  }) do
    if pair[1] then
      table.insert(hints, pair[1] .. " " .. pair[2])
    end
  end
  return table.concat(hints, " · ")
end

--- The panel's lines: the explanation (if any), the file list, the keys.
---@param review table agent_lsp.Review
---@return string[] lines
---@return integer first_file_row 0-based row of the first file
function M.lines(review)
  local lines = {}
  local explanation = vim.trim(review.explanation or "")
  if explanation ~= "" then
    for _, l in ipairs(vim.split(explanation, "\n", { plain = true })) do
      table.insert(lines, l)
    end
    table.insert(lines, "")
  end
  local first = #lines
  for i, f in ipairs(review.params.files) do
    local draft = review.drafts[i]
    -- A file left with hunks taken (not finished yet) shows as taken in part.
    local state = review.states[i] or ((draft and draft ~= f.oldText) and "partial" or "pending")
    local cursor = i == review.index and "> " or "  "
    table.insert(lines, string.format("%s%s %s", cursor, M.MARKS[state], M.display_name(f.uri)))
  end
  table.insert(lines, "")
  table.insert(lines, M.keys_hint())
  return lines, first
end

--- Labels a diff window: a winbar from 0.8 on, else the start of its statusline.
---@param win integer
---@param label string
---@param status string the status line text (not yet escaped)
function M.label_window(win, label, status)
  local escaped = status:gsub("%%", "%%%%")
  if util.has("0.8") then
    vim.wo[win].winbar = "%#Title#" .. label
    vim.wo[win].statusline = escaped
  else
    vim.wo[win].statusline = label .. "  │  " .. escaped .. "%="
  end
end

--- Creates the panel's buffer.
---@return integer buf
function M.create()
  local buf = util.scratch_buffer("agent-lsp://review/files", "markdown")
  vim.bo[buf].bufhidden = "wipe"
  return buf
end

--- Redraws the panel and fits its window to it (at most a third of the screen).
---@param review table agent_lsp.Review
function M.draw(review)
  if not (review.panel_buf and vim.api.nvim_buf_is_valid(review.panel_buf)) then
    return
  end
  local lines = M.lines(review)
  vim.bo[review.panel_buf].modifiable = true
  vim.api.nvim_buf_set_lines(review.panel_buf, 0, -1, false, lines)
  vim.bo[review.panel_buf].modifiable = false
  if review.panel_win and vim.api.nvim_win_is_valid(review.panel_win) then
    -- Wrapped lines take several screen rows: count those, not the lines.
    local width = math.max(1, vim.api.nvim_win_get_width(review.panel_win))
    local rows = 0
    for _, l in ipairs(lines) do
      rows = rows + math.max(1, math.ceil(vim.fn.strdisplaywidth(l) / width))
    end
    local height = math.max(3, math.min(rows, math.floor(vim.o.lines / 3)))
    vim.api.nvim_win_set_height(review.panel_win, height)
  end
end

return M
