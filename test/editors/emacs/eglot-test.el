;;; eglot-test.el --- agent-lsp beside the user's own language server  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)
(agent-lsp-test-require-eglot)
(require 'flymake)

(defun agent-lsp-test-flymake-messages (buf)
  "The texts of BUF's flymake diagnostics, after asking flymake to check again.
Batch Emacs has no command loop and is never idle: the hooks that start
flymake's checks and the idle timer that sends eglot's didChange do not
run, so both are done here, as an interactive Emacs does by itself."
  (with-current-buffer buf
    (eglot--signal-textDocument/didChange)
    (flymake-start nil t)
    (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))

(ert-deftest agent-lsp-beside-eglot ()
  "eglot and agent-lsp manage one buffer; each server sees the other's edits; fix a diagnostic."
  (let* ((buf (agent-lsp-test-visit "main.txt"))
         (eglot-server-programs
          `((text-mode . ("node" ,(expand-file-name "test/editors/emacs/tiny-lsp.mjs" agent-lsp-test-repo)
                          "--stdio")))))
    (with-current-buffer buf
      (text-mode)
      (call-interactively #'eglot))
    (agent-lsp-test-wait "eglot to manage the buffer"
                         (lambda () (buffer-local-value 'eglot--managed-mode buf)))
    (agent-lsp-test-wait "the tiny server's diagnostic"
                         (lambda () (cl-some (lambda (m) (string-search "a TODO is left here" m))
                                                    (agent-lsp-test-flymake-messages buf))))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (should (buffer-local-value 'agent-lsp-managed-mode buf))
    ;; "Ask agent to fix" the eglot diagnostic under point.
    (with-current-buffer buf
      (goto-char (point-min))
      (search-forward "TODO")
      (agent-lsp-actions nil nil "fix"))
    (agent-lsp-test-chat-has "Fixed the TODO.")
    (agent-lsp-test-wait-idle)
    (should (equal (agent-lsp-test-text buf) "alpha\nDONE: fixed\n"))
    ;; eglot's server got the agent's edit: its diagnostic went away.
    (agent-lsp-test-wait "the diagnostic to go"
                         (lambda () (null (agent-lsp-test-flymake-messages buf))))
    ;; Typing reaches both servers: eglot's warns again, agent-lsp's agent reads it.
    (with-current-buffer buf
      (goto-char (point-max))
      (insert "TODO typed by the user\n"))
    (agent-lsp-test-wait "eglot's server to see the typing"
                         (lambda () (agent-lsp-test-flymake-messages buf)))
    (agent-lsp-test-send "Read main.txt")
    (agent-lsp-test-chat-has "Read it.")
    (agent-lsp-test-wait-idle)
    (with-current-buffer buf
      (should (eglot-current-server))
      (should agent-lsp-managed-mode))))

;;; eglot-test.el ends here
