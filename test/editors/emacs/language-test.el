;;; language-test.el --- The agent asks the user's own language server through eglot  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)
(agent-lsp-test-require-eglot)
(require 'flymake)

(ert-deftest agent-lsp-language-service ()
  "The model's find_references, rename_symbol and an edit's diagnostics go through eglot's server.
The toy server of test/helpers/toy-lsp runs under eglot for two buffers; the vitest side
checks what the model was sent."
  (let* ((lib (agent-lsp-test-visit "lib.toy"))
         (main (agent-lsp-test-visit "main.toy"))
         (eglot-server-programs
          `((text-mode . ("node" ,(expand-file-name "test/helpers/toy-lsp/server.mjs" agent-lsp-test-repo)
                          "--stdio"))))
         ;; Batch Emacs is never idle, so flymake never starts its checks by itself: do it
         ;; as an interactive Emacs would, all along.
         (flymake-timer (run-at-time 0 0.1 (lambda ()
                                             (dolist (buf (list lib main))
                                               (when (buffer-live-p buf)
                                                 (with-current-buffer buf
                                                   (when flymake-mode (flymake-start nil t)))))))))
    (unwind-protect
        (progn
          (dolist (buf (list lib main)) (with-current-buffer buf (text-mode)))
          (with-current-buffer lib (call-interactively #'eglot))
          (dolist (buf (list lib main))
            (agent-lsp-test-wait "eglot to manage the buffer"
                                 (lambda () (buffer-local-value 'eglot--managed-mode buf))))
          (agent-lsp-test-start-chat)
          (agent-lsp-test-wait-open main)
          (agent-lsp-test-send "Who uses greet?")
          (agent-lsp-test-chat-has "Four places.")
          (agent-lsp-test-wait-idle)
          (agent-lsp-test-send "Rename greet to salute")
          (agent-lsp-test-chat-has "Renamed.")
          (agent-lsp-test-wait-idle)
          (should (equal (agent-lsp-test-text lib) "def salute = hello\ndef hello = world\ndef world = world\n"))
          (should (equal (agent-lsp-test-text main) "def main = salute\nuse salute twice salute\n"))
          (agent-lsp-test-send "Use thrice")
          (agent-lsp-test-chat-has "Oops.")
          (agent-lsp-test-wait-idle)
          (should (equal (agent-lsp-test-text main) "def main = salute\nuse salute thrice salute\n"))
          ;; A file eglot does not manage is an error saying so; nothing will publish for it.
          (let ((words (agent-lsp--path-to-uri (agent-lsp-test-file "words.toy")))
                answer)
            (agent-lsp--ask-eglot "textDocument/hover"
                                  (list :textDocument (list :uri words) :position (list :line 0 :character 0))
                                  (lambda (result &optional error) (setq answer (list result error))))
            (should (string-match-p "no language server (eglot) in Emacs serves textDocument/hover for .*words\\.toy (is the file open\\?)"
                                    (plist-get (nth 1 answer) :message)))
            (should (equal (agent-lsp--diagnostics (list :uri words)) (list :diagnostics [] :servers 0)))))
      (cancel-timer flymake-timer))))

;;; language-test.el ends here
