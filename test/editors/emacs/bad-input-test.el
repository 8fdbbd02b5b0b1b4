;;; bad-input-test.el --- Bad input gets one clear message and loses nothing  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(defvar agent-lsp-test-messages nil "Messages shown in the echo area.")

(defun agent-lsp-test-record-messages ()
  "Record every message from now on."
  (advice-add 'message :before (lambda (fmt &rest args)
                                 (when fmt (push (apply #'format-message fmt args) agent-lsp-test-messages)))))

(defun agent-lsp-test-then-works (buf real-command)
  "With REAL-COMMAND as the server command, a prompt from BUF is answered."
  (setq agent-lsp-server-command real-command)
  (with-current-buffer buf (agent-lsp-ask "Try again"))
  (agent-lsp-test-chat-has "Works now.")
  (agent-lsp-test-wait-idle))

(defun agent-lsp-test-buffer-with-typing ()
  "Visit notes.txt and type into it without saving; return the buffer."
  (let ((buf (agent-lsp-test-visit "notes.txt")))
    (with-current-buffer buf (goto-char (point-max)) (insert "unsaved\n"))
    buf))

(ert-deftest agent-lsp-bad-no-binary ()
  "No server binary: one clear message, the buffer untouched, the next command works."
  (agent-lsp-test-record-messages)
  (let ((real agent-lsp-server-command)
        (buf (agent-lsp-test-buffer-with-typing)))
    (setq agent-lsp-server-command '("/nonexistent/agent-lsp" "--stdio"))
    (with-current-buffer buf (agent-lsp-ask "Hello"))
    (agent-lsp-test-chat-has "Error: Cannot start the agent-lsp server: \"/nonexistent/agent-lsp\" not found")
    (should (cl-some (lambda (m) (string-search "\"/nonexistent/agent-lsp\" not found" m)) agent-lsp-test-messages))
    (should-not (agent-lsp-test-busy-p))
    (should (equal (agent-lsp-test-text buf) "x\nunsaved\n"))
    (agent-lsp-test-then-works buf real)))

(ert-deftest agent-lsp-bad-crashing-server ()
  "A server that crashes at start: its exit code and error are shown; the next command works."
  (agent-lsp-test-record-messages)
  (let ((real agent-lsp-server-command)
        (buf (agent-lsp-test-buffer-with-typing)))
    (setq agent-lsp-server-command
          '("node" "-e" "process.stderr.write('Error: boom at start\\n'); process.exit(3)"))
    (with-current-buffer buf (agent-lsp-ask "Hello"))
    (agent-lsp-test-chat-has "the server stopped (exit code 3: Error: boom at start)")
    (should (cl-some (lambda (m) (string-search "exit code 3" m)) agent-lsp-test-messages))
    (agent-lsp-test-wait-idle)
    (should (equal (agent-lsp-test-text buf) "x\nunsaved\n"))
    (agent-lsp-test-then-works buf real)))

(ert-deftest agent-lsp-bad-provider-error ()
  "A provider error ends the turn with the provider's message in the chat and echo area."
  (agent-lsp-test-record-messages)
  (let ((buf (agent-lsp-test-buffer-with-typing)))
    (with-current-buffer buf (agent-lsp-ask "Hello"))
    (agent-lsp-test-chat-has "invalid x-api-key")
    (agent-lsp-test-wait-idle)
    (should (string-search "Error: " (agent-lsp-test-chat-text)))
    ;; Said once: the turn's end repeats the error update's message, and that repeat is not shown.
    (should (= 1 (cl-count-if (lambda (l) (string-prefix-p "Error: " l))
                              (split-string (agent-lsp-test-chat-text) "\n"))))
    (should (cl-some (lambda (m) (string-search "invalid x-api-key" m)) agent-lsp-test-messages))
    (should (equal (agent-lsp-test-text buf) "x\nunsaved\n"))
    (with-current-buffer buf (agent-lsp-ask "Try again"))
    (agent-lsp-test-chat-has "Works now.")
    (agent-lsp-test-wait-idle)))

(ert-deftest agent-lsp-bad-malformed-message ()
  "A malformed message from the server stops it with one clear message; a new one starts."
  (agent-lsp-test-record-messages)
  (let ((real agent-lsp-server-command)
        (buf (agent-lsp-test-buffer-with-typing)))
    (setq agent-lsp-server-command
          (list "node" (expand-file-name "test/editors/emacs/garbage-server.mjs" agent-lsp-test-repo)
                (nth 1 real)))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-send "please-send-garbage")
    (agent-lsp-test-chat-has "the server sent a malformed message")
    (agent-lsp-test-wait-idle)
    (should (cl-some (lambda (m) (string-search "malformed message" m)) agent-lsp-test-messages))
    (should-not (agent-lsp--live agent-lsp-test-root))
    (should (equal (agent-lsp-test-text buf) "x\nunsaved\n"))
    (agent-lsp-test-then-works buf real)))

;;; bad-input-test.el ends here
