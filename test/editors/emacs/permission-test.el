;;; permission-test.el --- Approving commands, answering questions, in the chat  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-permission-each-way ()
  "A command is asked in the chat with its folder: y runs it, n declines it."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "Run echo")
  (let* ((block (agent-lsp-test-block "echo from-the-agent"))
         (text (agent-lsp-test-block-text block)))
    (should (string-search "Command: echo from-the-agent\n" text))
    (should (string-search (format "Folder:  %s\n" (abbreviate-file-name (directory-file-name agent-lsp-test-root)))
                           text))
    (should (string-search "[y] Yes" text))
    (should (string-search "[n] No" text))
    (should (string-search "[w] No, and tell the agent why" text)))
  (agent-lsp-test-press "y")
  (agent-lsp-test-chat-has "Ran it.")
  (agent-lsp-test-wait-idle)
  (should (string-search "✓ Allowed: execute_command: echo from-the-agent" (agent-lsp-test-chat-text)))
  (agent-lsp-test-send "Run printf")
  (agent-lsp-test-block "printf other")
  (agent-lsp-test-press "n")
  (agent-lsp-test-chat-has "Not run.")
  (agent-lsp-test-wait-idle)
  (should (string-search "✗ Declined: execute_command: printf other" (agent-lsp-test-chat-text)))
  (should-not (buffer-local-value 'agent-lsp--waiting-blocks (agent-lsp-test-chat))))

(ert-deftest agent-lsp-permission-quit ()
  "C-g on the block answers No at once; the next approval works."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "Run echo")
  (agent-lsp-test-block "echo first")
  (agent-lsp-test-press "C-g")
  (agent-lsp-test-chat-has "Declined.")
  (agent-lsp-test-wait-idle)
  (agent-lsp-test-send "Run it now")
  (agent-lsp-test-block "echo second-run")
  (agent-lsp-test-press "y")
  (agent-lsp-test-chat-has "Ran it.")
  (agent-lsp-test-wait-idle))

(ert-deftest agent-lsp-permission-chat-killed ()
  "Killing the chat while an approval waits answers it No; the mode line forgets it."
  (let ((ended nil))
    (advice-add 'agent-lsp--turn-ended :after (lambda (&rest _) (setq ended t)))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-send "Run echo")
    (agent-lsp-test-block "echo first")
    (let ((conn (buffer-local-value 'agent-lsp--chat-conn (agent-lsp-test-chat))))
      (kill-buffer (agent-lsp-test-chat))
      (agent-lsp-test-wait "the approval to be answered" (lambda () (= 0 (hash-table-count (agent-lsp--replies conn)))))
      (should-not (member agent-lsp--waiting-mode-line global-mode-string))
      ;; The turn goes on without the chat, and ends.
      (agent-lsp-test-wait "the turn to end" (lambda () ended) 30))))

(ert-deftest agent-lsp-permission-cannot-ask ()
  "An approval Emacs fails to show is answered as a failure (the server says so), never as a No."
  (advice-add 'agent-lsp-waiting-add :override (lambda (&rest _) (error "No room for the block")))
  (let ((chat (agent-lsp-test-start-chat)))
    (agent-lsp-test-send "Run echo")
    (agent-lsp-test-chat-has "Could not ask.")
    (agent-lsp-test-wait-idle)
    (should (= 0 (hash-table-count (agent-lsp--replies (buffer-local-value 'agent-lsp--chat-conn chat)))))
    (should-not (string-search "✗ Declined" (agent-lsp-test-chat-text)))))

(ert-deftest agent-lsp-permission-typed-elsewhere ()
  "Keys typed into a code buffer, or the chat's prompt, while an approval waits never answer it."
  (let ((code (agent-lsp-test-visit "main.py")))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-send "List the files")
    ;; The user's point waits at the end of the transcript (where the answer streams).
    (with-current-buffer (agent-lsp-test-chat)
      (goto-char agent-lsp--transcript-end)
      (set-window-point (get-buffer-window (current-buffer)) (point)))
    (agent-lsp-test-block "ls -la")
    ;; The mode lines of the code, of the chat and of any other buffer say that an approval
    ;; waits, and so does the chat's header.  (Batch Emacs formats no mode line: the parts
    ;; the package puts there are evaluated here.)
    (with-current-buffer code (should (equal (agent-lsp--lighter) " agent[ask:approval waiting]")))
    (with-current-buffer (agent-lsp-test-chat)
      (should (equal (agent-lsp--lighter) " agent[ask:approval waiting]"))
      (should (string-search "approval waiting" (agent-lsp--chat-header))))
    (should (member agent-lsp--waiting-mode-line global-mode-string))
    (with-temp-buffer
      (should (equal (agent-lsp--waiting-global-lighter) " [agent: approval waiting]")))
    ;; Nor does point left at the end of the transcript, where the block was written.
    (with-current-buffer (agent-lsp-test-chat)
      (should-not (agent-lsp-waiting-at (point))))
    (agent-lsp-test-type code (make-string 40 ?y))
    (agent-lsp-test-type code "a\r")
    ;; Typed in the chat's prompt area, "yes" is a prompt being written.
    (with-selected-window (agent-lsp-test-show (agent-lsp-test-chat))
      (goto-char (point-max)))
    (agent-lsp-test-type (agent-lsp-test-chat) "yes")
    (agent-lsp-test-pause 0.5)
    (should (string-search (concat (make-string 40 ?y) "a\n") (agent-lsp-test-text code)))
    (should (string-suffix-p "yes" (agent-lsp-test-chat-text)))
    ;; Still waiting: the server got no answer and the model was not called again.
    (should (agent-lsp-test-block "ls -la"))
    (should (agent-lsp-test-busy-p))
    (should-not (string-search "Not run." (agent-lsp-test-chat-text)))
    (agent-lsp-test-press "n")
    (agent-lsp-test-chat-has "Not run.")
    (agent-lsp-test-wait-idle)
    (with-current-buffer code (should (equal (agent-lsp--lighter) " agent[ask]")))
    (should-not (member agent-lsp--waiting-mode-line global-mode-string))))

(ert-deftest agent-lsp-permission-save-first ()
  "The approval of a command shows the files Yes saves first; the reason of a No reaches the model."
  (let ((notes (agent-lsp-test-visit "notes.txt")))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open notes)
    (agent-lsp-test-send "Edit, then run")
    (agent-lsp-test-block "notes.txt: 1 change")
    (agent-lsp-test-press "A")
    (agent-lsp-test-wait "the agent's edit" (lambda () (string-search "BETA" (agent-lsp-test-text notes))))
    (let ((text (agent-lsp-test-block-text (agent-lsp-test-block "cat notes.txt"))))
      (should (string-search "and save 1 file first: notes.txt" text))
      (should (string-search "Command: cat notes.txt" text)))
    (agent-lsp-test-with-reason "use head instead"
      (agent-lsp-test-press "w"))
    (agent-lsp-test-chat-has "Told.")
    (agent-lsp-test-wait-idle)
    (should (string-search "✗ Declined: execute_command: cat notes.txt" (agent-lsp-test-chat-text)))
    (should (string-search "you said: \"use head instead\"" (agent-lsp-test-chat-text)))
    ;; Not saved: the command did not run.
    (should (buffer-modified-p notes))))

(ert-deftest agent-lsp-ask-user ()
  "Questions are asked in the chat: a choice by its number, then words of one's own."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "Ask me")
  (let ((text (agent-lsp-test-block-text (agent-lsp-test-block "Which colour?"))))
    (should (string-search "[1] Red" text))
    (should (string-search "[2] Blue" text))
    (should (string-search "question waiting" (with-current-buffer (agent-lsp-test-chat)
                                                (agent-lsp--chat-header)))))
  (agent-lsp-test-press "2")
  (agent-lsp-test-block "What is your name?")
  (cl-letf (((symbol-function 'read-string) (lambda (prompt &rest _)
                                              (should (string-search "Your answer" prompt))
                                              "a free answer")))
    (agent-lsp-test-press "t"))
  (agent-lsp-test-chat-has "Thanks for both answers.")
  (agent-lsp-test-wait-idle)
  (should (string-search "You answered: Blue" (agent-lsp-test-chat-text)))
  (should (string-search "You answered: a free answer" (agent-lsp-test-chat-text))))

;;; Plans and phases

(ert-deftest agent-lsp-plan-approve ()
  "A plan made in plan mode is asked about in the chat: revise it with words, then go."
  (agent-lsp-test-start-chat)
  (should (equal (buffer-local-value 'agent-lsp--mode (agent-lsp-test-chat)) "plan"))
  (agent-lsp-test-send "Plan the work")
  (agent-lsp-test-block "The agent's plan (above) is ready")
  (should (string-search "- [ ] Read the parser" (agent-lsp-test-chat-text)))
  (cl-letf (((symbol-function 'read-string) (lambda (prompt &rest _)
                                              (should (string-search "change in the plan" prompt))
                                              "Add a step that runs the tests")))
    (agent-lsp-test-press "r"))
  (agent-lsp-test-chat-has "Revised.")
  (agent-lsp-test-wait-idle)
  (should (equal (buffer-local-value 'agent-lsp--mode (agent-lsp-test-chat)) "plan"))
  (agent-lsp-test-block "The agent's plan (above) is ready")
  (should (string-search "- [ ] Run the tests" (agent-lsp-test-chat-text)))
  (agent-lsp-test-press "g")
  (agent-lsp-test-chat-has "Carrying it out.")
  (agent-lsp-test-wait-idle)
  (should (equal (buffer-local-value 'agent-lsp--mode (agent-lsp-test-chat)) "ask"))
  (should (string-search "✓ Plan approved: carried out in ask mode" (agent-lsp-test-chat-text)))
  ;; A turn that proposes no plan asks nothing.
  (should-not (buffer-local-value 'agent-lsp--waiting-blocks (agent-lsp-test-chat))))

(ert-deftest agent-lsp-phase-acknowledge ()
  "A phase report that waits is asked in the chat: Stop here ends the turn."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "Do the long task")
  (let ((text (agent-lsp-test-block-text (agent-lsp-test-block "Phase done: Parser rewritten"))))
    (should (string-search "[1] Continue" text))
    (should (string-search "[2] Stop here" text)))
  (agent-lsp-test-press "2")
  (agent-lsp-test-wait-idle)
  (should (string-search "You answered: Stop here" (agent-lsp-test-chat-text))))

;;; permission-test.el ends here
