;;; permission-test.el --- Approving commands, answering questions  -*- lexical-binding: t; -*-

;;; Code:

(require 'agent-lsp-test)

(defvar agent-lsp-test-prompts nil "The prompts `read-multiple-choice' showed.")

(defun agent-lsp-test-record-rmc (fn prompt choices &rest args)
  "Record PROMPT and CHOICES, then call FN with them and ARGS."
  (push (cons prompt (mapcar #'car choices)) agent-lsp-test-prompts)
  (apply fn prompt choices args))

(ert-deftest agent-lsp-permission-each-way ()
  "A command is asked with its folder: y runs it, n declines it."
  (advice-add 'read-multiple-choice :around #'agent-lsp-test-record-rmc)
  (agent-lsp-test-start-chat)
  (agent-lsp-test-with-keys '(?y)
    (agent-lsp-test-send "Run echo")
    (agent-lsp-test-chat-has "Ran it."))
  (agent-lsp-test-wait-idle)
  (let ((prompt (car (car agent-lsp-test-prompts))))
    (should (string-search (format "agent-lsp wants to run, in %s:\n  echo from-the-agent\n"
                                   (abbreviate-file-name (directory-file-name agent-lsp-test-root)))
                           prompt))
    (should (memq ?y (cdr (car agent-lsp-test-prompts))))
    (should (memq ?n (cdr (car agent-lsp-test-prompts)))))
  (agent-lsp-test-with-keys '(?n)
    (agent-lsp-test-send "Run printf")
    (agent-lsp-test-chat-has "Not run."))
  (agent-lsp-test-wait-idle)
  (should (= (length agent-lsp-test-prompts) 2)))

(ert-deftest agent-lsp-permission-quit ()
  "C-g on a prompt answers No at once; the next prompt works."
  (let ((quit-once t))
    (advice-add 'read-event :around
                (lambda (fn &rest args)
                  (if quit-once
                      (progn (setq quit-once nil)
                             ;; What C-g does while Emacs reads a key: signal `quit'.
                             (signal 'quit nil))
                    (apply fn args))))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-send "Run echo")
    (agent-lsp-test-chat-has "Declined.")
    (agent-lsp-test-wait-idle)
    (should-not quit-once)
    (agent-lsp-test-with-keys '(?y)
      (agent-lsp-test-send "Run it now")
      (agent-lsp-test-chat-has "Ran it."))
    (agent-lsp-test-wait-idle)))

(ert-deftest agent-lsp-ask-user ()
  "Questions use `completing-read': a choice, then free text."
  (let ((answers (list "Blue" "a free answer")) (seen nil))
    (advice-add 'completing-read :override
                (lambda (prompt collection &rest _)
                  (push (cons prompt (append collection nil)) seen)
                  (pop answers)))
    (advice-add 'read-string :override
                (lambda (prompt &rest _) (push (list prompt) seen) (pop answers)))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-send "Ask me")
    (agent-lsp-test-chat-has "Thanks for both answers.")
    (agent-lsp-test-wait-idle)
    (setq seen (nreverse seen))
    (should (string-search "Which colour?" (car (nth 0 seen))))
    (should (equal (cdr (nth 0 seen)) '("Red" "Blue")))
    (should (string-search "What is your name?" (car (nth 1 seen))))))

;;; permission-test.el ends here
