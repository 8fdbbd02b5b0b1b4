---@mod agent_lsp.review_answer What the diff review answers, and the questions before it does.
---
--- Each file of the change set ends with a result text: what was finished, else the draft in the
--- result window, else the current text. The answer names them: nothing taken is a rejection,
--- everything taken a plain yes, a mix carries every file's final text (`accepted`). Before
--- answering, a file whose result is empty while the proposal was not is asked about (an empty
--- file is never applied by accident), and a refusal with the user's words keeps the files
--- already finished with something taken.

local panel = require("agent_lsp.review_panel")
local rtext = require("agent_lsp.review_text")

local M = {}

--- The result text of file `i`: what was finished, else the draft being edited, else the current.
---@param review agent_lsp.Review
---@param i integer
---@return string
function M.result_of(review, i)
  return review.results[i] or review.drafts[i] or review.params.files[i].oldText
end

--- The text of the result window, with the file's line ends.
---@param review agent_lsp.Review
---@return string
function M.current_text(review)
  local f = review.params.files[review.index]
  local old_lines, shape = rtext.to_lines(f.oldText)
  local new_lines, new_shape = rtext.to_lines(f.newText)
  local result = vim.api.nvim_buf_get_lines(review.bufs[1], 0, -1, false)
  if rtext.lines_equal(result, new_lines) then
    return f.newText
  elseif rtext.lines_equal(result, old_lines) then
    return f.oldText
  end
  return rtext.from_lines(result, { crlf = shape.crlf, eol = new_shape.eol })
end

--- "accepted", "declined" or "partial": what a file's result is to its proposal.
---@param f table the file {oldText, newText}
---@param text string its result
---@return string
function M.state_of(f, text)
  if text == f.newText then
    return "accepted"
  elseif text == f.oldText then
    return "declined"
  end
  return "partial"
end

--- The result of every file, the open one read from its window.
---@param review agent_lsp.Review
---@return string[]
local function texts(review)
  local out = {}
  for i = 1, #review.params.files do
    out[i] = i == review.index and not review.results[i] and M.current_text(review) or M.result_of(review, i)
  end
  return out
end

--- True when the user took something: a finished file or the open draft differs from now.
---@param review agent_lsp.Review
---@return boolean
function M.took_something(review)
  for i, text in ipairs(texts(review)) do
    if text ~= review.params.files[i].oldText then
      return true
    end
  end
  return false
end

--- Keeps what the result window holds as the file's draft (moving to another file, answering).
---@param review agent_lsp.Review
function M.keep_draft(review)
  if not review.results[review.index] then
    review.drafts[review.index] = M.current_text(review)
  end
end

--- The answer for the final texts of every file: nothing taken is a rejection, everything taken
--- a plain yes (`option_id`), a mix names the final text of every file. `reason` goes with it.
---@param review agent_lsp.Review
---@param option_id string
---@param reason string|nil the user's words about what they did not take
function M.answer_with(review, option_id, reason)
  local all_new, all_old = true, true
  local accepted = {}
  for i, f in ipairs(review.params.files) do
    local text = M.result_of(review, i)
    all_new = all_new and text == f.newText
    all_old = all_old and text == f.oldText
    table.insert(accepted, { uri = f.uri, text = text })
  end
  local result
  if all_old then
    result = { optionId = "reject" }
  elseif all_new then
    result = { optionId = option_id }
  else
    result = { optionId = option_id, accepted = accepted }
  end
  result.reason = reason
  review.answer(result)
end

--- Whether `text` would empty a file the proposal keeps something in.
local function empties(f, text)
  return vim.trim(text) == "" and vim.trim(f.newText) ~= ""
end

--- Runs `go` once the user agrees to apply the empty results among `indexes` (the files' results
--- are empty though their proposals are not: an undo past the start, a deleted buffer); without
--- such a file, at once. Choosing to keep reviewing (or nothing) leaves the review open.
---@param review agent_lsp.Review
---@param results table<integer, string> file index -> the result about to be taken
---@param go fun()
function M.confirm_empty(review, results, go)
  local names = {}
  for i, text in pairs(results) do
    if empties(review.params.files[i], text) then
      table.insert(names, panel.display_name(review.params.files[i].uri))
    end
  end
  if #names == 0 then
    go()
    return
  end
  table.sort(names)
  local choices = {
    { id = "stay", name = "Keep reviewing" },
    { id = "apply", name = "Apply the empty result (the file's text is removed)" },
  }
  vim.ui.select(choices, {
    prompt = string.format("agent-lsp review: the result of %s is empty, the proposal is not", table.concat(names, ", ")),
    kind = "agent_lsp.review_empty",
    format_item = function(c)
      return c.name
    end,
  }, function(choice)
    if not review.finished and choice and choice.id == "apply" then
      go()
    end
  end)
end

--- `q`: rejects at once when nothing was taken; else asks what to do with what was taken.
---@param review agent_lsp.Review
function M.quit(review)
  if not M.took_something(review) then
    review.answer({ optionId = "reject" })
    return
  end
  local choices = {
    { id = "reject", name = "Reject everything (drop the hunks you took)" },
    { id = "apply", name = "Apply only what you took" },
    { id = "stay", name = "Keep reviewing" },
  }
  vim.ui.select(choices, {
    prompt = "agent-lsp review: you took part of the change",
    kind = "agent_lsp.review_quit",
    format_item = function(c)
      return c.name
    end,
  }, function(choice)
    if review.finished or not choice or choice.id == "stay" then
      return
    end
    if choice.id == "reject" then
      review.answer({ optionId = "reject" })
      return
    end
    M.keep_draft(review)
    local results = {}
    for i = 1, #review.params.files do
      results[i] = M.result_of(review, i)
    end
    M.confirm_empty(review, results, function()
      M.answer_with(review, "allow_once")
    end)
  end)
end

--- `gR`: asks for the user's words and refuses with them (an empty line keeps reviewing). Files
--- already finished with something taken are kept: they are applied, and the words are about
--- the rest, whose drafts and unvisited files are declined.
---@param review agent_lsp.Review
function M.reject_with_reason(review)
  vim.ui.input({ prompt = "Tell the agent why (or what to do instead): " }, function(text)
    if review.finished or not text or vim.trim(text) == "" then
      return
    end
    local kept = {}
    for i, f in ipairs(review.params.files) do
      if review.results[i] and review.results[i] ~= f.oldText then
        table.insert(kept, panel.display_name(f.uri))
      end
    end
    if #kept == 0 then
      review.answer({ optionId = "reject", reason = vim.trim(text) })
      return
    end
    for i, f in ipairs(review.params.files) do
      if not review.results[i] then
        review.results[i] = f.oldText
      end
    end
    require("agent_lsp.util").notify("kept the files you finished (" .. table.concat(kept, ", ") .. "); the rest is declined")
    M.answer_with(review, "allow_once", vim.trim(text))
  end)
end

return M
