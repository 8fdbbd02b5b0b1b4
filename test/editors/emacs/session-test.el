;;; session-test.el --- Cancel, sessions, a server that dies  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-cancel-stream ()
  "C-c C-k stops a streaming turn; the chat goes on."
  (let ((chat (agent-lsp-test-start-chat)))
    (agent-lsp-test-send "A long task")
    (agent-lsp-test-chat-has "partial")
    (should (agent-lsp-test-busy-p))
    (with-current-buffer chat (call-interactively (key-binding (kbd "C-c C-k"))))
    (agent-lsp-test-wait-idle 10)
    (agent-lsp-test-chat-has "(cancelled)")
    (agent-lsp-test-send "Again")
    (agent-lsp-test-chat-has "next answer")
    (agent-lsp-test-wait-idle)
    ;; A new session in the same chat.
    (let ((old (buffer-local-value 'agent-lsp--session chat)))
      (with-current-buffer chat (agent-lsp-new-session))
      (agent-lsp-test-chat-has "── new session ──")
      (agent-lsp-test-wait "the new session"
                           (lambda () (let ((new (buffer-local-value 'agent-lsp--session chat)))
                                        (and new (not (equal new old))))))
      (agent-lsp-test-send "Fresh start")
      (agent-lsp-test-chat-has "fresh answer")
      (agent-lsp-test-wait-idle))))

(ert-deftest agent-lsp-sessions-save ()
  "A first Emacs answers one prompt; its session is saved by the server."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "First question")
  (agent-lsp-test-chat-has "Answer one.")
  (agent-lsp-test-wait-idle))

(ert-deftest agent-lsp-sessions-load ()
  "A second Emacs loads the saved session: history replayed, the conversation goes on."
  (let ((offered nil))
    (advice-add 'completing-read :override
                (lambda (_prompt items &rest _)
                  (setq offered (mapcar #'car items))
                  (car offered)))
    (with-temp-buffer
      (setq default-directory agent-lsp-test-root)
      (agent-lsp-sessions))
    (agent-lsp-test-chat-has "Answer one.")
    (should (string-match-p "First question" (car offered)))
    (should (string-search "## You\nFirst question" (agent-lsp-test-chat-text)))
    (agent-lsp-test-wait "the session" (lambda () (buffer-local-value 'agent-lsp--session (agent-lsp-test-chat))))
    (agent-lsp-test-send "Second question")
    (agent-lsp-test-chat-has "Answer two.")
    (agent-lsp-test-wait-idle)))

(ert-deftest agent-lsp-server-killed ()
  "A killed server is reported once; the next command starts a new one and goes on."
  (let ((messages nil) (buf (agent-lsp-test-visit "notes.txt")))
    (advice-add 'message :before (lambda (fmt &rest args)
                                   (when fmt (push (apply #'format-message fmt args) messages))))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-send "First question")
    (agent-lsp-test-chat-has "Answer one.")
    (agent-lsp-test-wait-idle)
    (let ((proc (jsonrpc--process (agent-lsp--live agent-lsp-test-root))))
      (signal-process (process-id proc) 'SIGKILL)
      (agent-lsp-test-wait "the server to be gone" (lambda () (not (process-live-p proc)))))
    (agent-lsp-test-chat-has "the server stopped (signal 9); the next command starts a new one")
    (should (cl-some (lambda (m) (string-search "agent-lsp: the server stopped (signal 9)" m)) messages))
    (should-not (buffer-local-value 'agent-lsp--conn buf))
    ;; The next command: a new server, the same conversation.
    (with-current-buffer buf (agent-lsp-ask "After the crash"))
    (agent-lsp-test-chat-has "Answer two.")
    (agent-lsp-test-wait-idle)
    (should (agent-lsp--live agent-lsp-test-root))
    (should (buffer-local-value 'agent-lsp--conn buf))))

;;; session-test.el ends here
