;;; chat-test.el --- The chat streams, folds tool calls, shows usage  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-chat-streams ()
  "A prompt streams into the chat; a tool call is one folded line; usage is shown."
  (let* ((answer (plist-get agent-lsp-test-data :answer))
         (chat (agent-lsp-test-start-chat))
         (partial nil))
    (should (string-match-p "\\*agent-lsp: project\\*" (buffer-name chat)))
    (agent-lsp-test-send "Say hello")
    (should (agent-lsp-test-busy-p))
    ;; The answer arrives in pieces: seen part-way while the turn still runs.
    (agent-lsp-test-wait "part of the answer"
                         (lambda ()
                           (let ((text (agent-lsp-test-chat-text)))
                             (and (string-search "Hello from" text)
                                  (not (string-search answer text))
                                  (setq partial t)))))
    (agent-lsp-test-chat-has answer)
    (agent-lsp-test-wait-idle)
    (should partial)
    (agent-lsp-test-send "Now use a tool")
    (agent-lsp-test-chat-has "Done with tools.")
    (agent-lsp-test-wait-idle)
    (let ((text (agent-lsp-test-chat-text)))
      (should (string-search "## You\nSay hello" text))
      (should (string-search "## Agent" text))
      (should (string-match-p "Usage: 12 in · 5 out" text))
      (should (string-match-p "▸ \\[failed\\] " text)))
    (with-current-buffer chat
      ;; The tool call's details are folded: invisible until TAB on its line.
      (goto-char (point-min))
      (search-forward "[failed]")
      (let ((detail (save-excursion (search-forward "path: missing.txt") (match-beginning 0))))
        (should (invisible-p detail))
        (call-interactively (key-binding (kbd "TAB")))
        (should-not (invisible-p detail))
        (should (string-search "▾ [failed]" (buffer-string))))
      ;; The transcript is read-only; the prompt area is not.
      (goto-char (point-min))
      (should-error (insert "x") :type 'text-read-only)
      (forward-char 4)
      (should-error (insert "x") :type 'text-read-only)
      (goto-char (point-max))
      (insert "draft")
      (should (equal (agent-lsp-chat-input) "draft")))))

;; Long work: reports, the result, and a subagent's words kept out of the answer.
(ert-deftest agent-lsp-chat-long-work ()
  "A phase report, a working message and the result are notes; a subagent's words are not shown."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "Do the long task")
  (agent-lsp-test-chat-has "Result: Fixed the off-by-one.")
  (agent-lsp-test-wait-idle)
  (let ((text (agent-lsp-test-chat-text)))
    (should (string-search "Phase done: Parser read. Verified: found the off-by-one. Next: Fix it." text))
    (should (string-search "» Now fixing the bug." text))
    (should (string-search "Result: Fixed the off-by-one.\nRun: npm test" text))
    ;; The subagent's answer is its call's output, never a line of the agent's answer.
    (should-not (string-match-p "^The parser is in src/parse.ts.$" text))))

;;; chat-test.el ends here
