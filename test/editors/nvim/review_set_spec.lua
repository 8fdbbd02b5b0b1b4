-- A change to three files, reviewed in one tab: a.txt taken whole (gy), b.txt finished with
-- nothing taken (<CR>: declined, marked so in the panel), then gR on c.txt with the user's words.
-- gR keeps the file already accepted: a.txt is applied, b.txt and c.txt are declined, and the
-- chat shows each call as it ended (done, declined, declined).
local T = dofile(vim.env.AGENT_LSP_TEST_HELPERS)

local function window_of(pattern)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match(pattern) then
      return win
    end
  end
end

local function wait_file(pattern)
  T.wait("the review of " .. pattern, function()
    local win = window_of(pattern)
    return win ~= nil and vim.api.nvim_get_current_win() == win
  end)
end

local function panel_text()
  return T.text(vim.api.nvim_win_get_buf(T.truthy(window_of("^agent%-lsp://review/files"), "the panel")))
end

T.run(function()
  T.forbid_blocking_prompts()
  T.open("notes.txt")
  local chat = T.open_chat()
  T.send(chat, "Change the three files")
  wait_file("^agent%-lsp://review/1/a%.txt %(current%)$")
  T.feed("gy")
  wait_file("^agent%-lsp://review/2/b%.txt %(current%)$")
  T.feed("<CR>")
  wait_file("^agent%-lsp://review/3/c%.txt %(current%)$")
  local panel = panel_text()
  T.contains(panel, "[x] a.txt", "a.txt accepted")
  T.contains(panel, "[-] b.txt", "b.txt declined")
  vim.ui.input = function(_, on_confirm)
    vim.schedule(function()
      on_confirm("keep b and c as they are")
    end)
  end
  T.feed("gR")
  T.wait_idle(chat)
  T.wait_text(chat, "Applied a.txt only.")
  local text = T.text(chat.buf)
  T.contains(text, "▸ [done] Edit a.txt", "the accepted file's call is done")
  T.contains(text, "▸ [declined] Edit b.txt", "the file finished with nothing taken is declined")
  T.contains(text, "▸ [declined] Edit c.txt", "the file refused with gR is declined")
  T.eq(T.read_file("a.txt"), "ALPHA\n", "the file accepted before gR is applied")
  T.eq(T.read_file("b.txt"), "beta\n", "b.txt unchanged")
  T.eq(T.read_file("c.txt"), "gamma\n", "c.txt unchanged")
end)
