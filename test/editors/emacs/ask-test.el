;;; ask-test.el --- Asking with context, modes, slash commands, code actions  -*- lexical-binding: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-ask-region ()
  "`agent-lsp-ask' sends the file and region; the mode, /undo and explain work too."
  (let ((buf (agent-lsp-test-visit "code.txt")))
    (with-current-buffer buf
      (goto-char (point-min))
      (forward-line 1)
      (let ((beg (+ (point) 12)))
        (forward-line 2)
        (agent-lsp-ask "What does this do?" beg (1- (point)))))
    (agent-lsp-test-chat-has "It returns b.")
    (agent-lsp-test-wait-idle)
    (with-current-buffer buf (agent-lsp-set-mode "plan"))
    (agent-lsp-test-chat-has "(mode: plan)")
    (with-current-buffer buf
      (should agent-lsp-managed-mode)
      (should (equal (agent-lsp--lighter) " agent[plan]"))
      (should (assq 'agent-lsp-managed-mode minor-mode-alist)))
    (with-current-buffer buf (agent-lsp-set-mode "full_access"))
    (agent-lsp-test-chat-has "(mode: full_access)")
    ;; An edit, then the agent's /undo puts the file back.
    (agent-lsp-test-send "Rename x")
    (agent-lsp-test-chat-has "Renamed.")
    (agent-lsp-test-wait-idle)
    (should (string-search "local y = b" (agent-lsp-test-text buf)))
    (with-current-buffer buf (agent-lsp-undo))
    (agent-lsp-test-wait "/undo" (lambda () (string-search "local x = b" (agent-lsp-test-text buf))))
    ;; A code action on the region streams into the chat's session.
    (with-current-buffer buf
      (agent-lsp-actions (point-min) (point-max) "explain"))
    (agent-lsp-test-chat-has "It adds nothing.")
    (agent-lsp-test-wait-idle)))

;;; ask-test.el ends here
