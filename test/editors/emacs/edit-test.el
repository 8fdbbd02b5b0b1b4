;;; edit-test.el --- The agent's edits land in buffers, versioned  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-edit-unsaved-buffer ()
  "An edit of an unsaved buffer lands in the buffer, not on disk, and undo takes it back."
  (let ((buf (agent-lsp-test-visit "notes.txt")))
    (with-current-buffer buf
      (goto-char (point-max))
      (insert "delta\n"))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Change beta")
    (agent-lsp-test-chat-has "Edited.")
    (agent-lsp-test-wait-idle)
    (should (equal (agent-lsp-test-text buf) "alpha\nBETA from the agent\ngamma\ndelta\n"))
    (should (equal (agent-lsp-test-disk "notes.txt") "alpha\nbeta\ngamma\n"))
    (should (buffer-modified-p buf))
    ;; One undo step takes the agent's whole change back, and nothing of the user's typing.
    (with-current-buffer buf
      (let ((last-command nil)) (undo)))
    (should (equal (agent-lsp-test-text buf) "alpha\nbeta\ngamma\ndelta\n"))
    ;; The server follows: the agent reads the undone text.
    (agent-lsp-test-send "Read it again")
    (agent-lsp-test-chat-has "Read.")
    (agent-lsp-test-wait-idle)))

(ert-deftest agent-lsp-edit-stale-version ()
  "An edit for a version the buffer has left behind is refused and changes nothing."
  (let ((buf (agent-lsp-test-visit "notes.txt")))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    ;; The user types just as the edit arrives: the edit's version is stale.
    (advice-add 'agent-lsp--handle-apply-edit :before
                (lambda (&rest _)
                  (with-current-buffer buf (goto-char (point-min)) (insert "typed "))))
    (unwind-protect
        (progn
          (agent-lsp-test-send "Change beta")
          (agent-lsp-test-chat-has "Could not.")
          (agent-lsp-test-wait-idle))
      (advice-remove 'agent-lsp--handle-apply-edit
                     (lambda (&rest _) nil)))
    (should (equal (agent-lsp-test-text buf) "typed alpha\nbeta\ngamma\n"))
    (should (equal (agent-lsp-test-disk "notes.txt") "alpha\nbeta\ngamma\n"))
    (with-current-buffer (get-buffer "*agent-lsp events*")
      (should (string-search "refused an edit" (buffer-string))))))

(ert-deftest agent-lsp-edit-saved-before-command ()
  "Before a command runs, the server has Emacs save the buffer the agent changed."
  (let ((buf (agent-lsp-test-visit "notes.txt")) (other (agent-lsp-test-visit "other.txt")))
    (with-current-buffer other (insert "the user's unsaved words\n"))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Change beta, then show the file")
    (agent-lsp-test-chat-has "Shown.")
    (agent-lsp-test-wait-idle)
    (should (equal (agent-lsp-test-disk "notes.txt") "alpha\nBETA\ngamma\n"))
    (should-not (buffer-modified-p buf))
    ;; Exactly the buffers named: the user's other unsaved buffer stays unsaved.
    (should (buffer-modified-p other))
    (should (equal (agent-lsp-test-disk "other.txt") "other\n"))))

;;; edit-test.el ends here

(ert-deftest agent-lsp-edit-after-visit ()
  "A file the agent read from disk and the user visits afterwards is not taken as changed."
  (agent-lsp-test-start-chat)
  (agent-lsp-test-send "Read the file")
  (agent-lsp-test-chat-has "Read.")
  (agent-lsp-test-wait-idle)
  (let ((buf (agent-lsp-test-visit (plist-get agent-lsp-test-data :file))))
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Change beta")
    (agent-lsp-test-chat-has "Edited.")
    (agent-lsp-test-wait-idle)
    (should (equal (agent-lsp-test-text buf) "alpha\nBETA\ngamma\n"))))
