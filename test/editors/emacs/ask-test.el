;;; ask-test.el --- Asking with context, modes, slash commands, code actions  -*- lexical-binding: t; no-byte-compile: t; -*-

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
    ;; A code action on the region streams into the chat's session; its progress is shown.
    (let ((messages nil))
      (advice-add 'message :before (lambda (fmt &rest args)
                                     (when fmt (push (apply #'format-message fmt args) messages))))
      (with-current-buffer buf
        (agent-lsp-actions (point-min) (point-max) "explain"))
      (agent-lsp-test-chat-has "It adds nothing.")
      (agent-lsp-test-wait-idle)
      ;; The server reports progress as it creates it: it may trail the turn's answer.
      (agent-lsp-test-wait "the progress in the echo area"
                           (lambda () (cl-some (lambda (m) (string-prefix-p "agent-lsp: Agent: explain code.txt:1" m))
                                               messages))))))

(ert-deftest agent-lsp-doctor-and-shutdown ()
  "The doctor reports on the set-up; shutdown stops the server without an error message."
  (let ((report (agent-lsp-doctor)))
    (agent-lsp-test-wait "the server's doctor"
                         (lambda () (with-current-buffer report
                                      (string-search "The server's doctor" (buffer-string)))))
    (with-current-buffer report
      (should (string-search "✓ Emacs" (buffer-string)))
      (should (string-search "✓ Server command: node" (buffer-string)))))
  (agent-lsp-test-start-chat)
  (let ((conn (agent-lsp--live agent-lsp-test-root)))
    (with-current-buffer (agent-lsp-test-chat) (agent-lsp-shutdown))
    (agent-lsp-test-wait "the server to exit" (lambda () (not (jsonrpc-running-p conn))))
    (agent-lsp-test-chat-has "(the server was shut down)")
    (should-not (string-search "the next command" (agent-lsp-test-chat-text)))))

;;; ask-test.el ends here
