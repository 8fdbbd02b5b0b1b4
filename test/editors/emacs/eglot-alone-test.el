;;; eglot-alone-test.el --- agent-lsp through eglot alone: the chat file  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Commentary:

;; Emacs with eglot and no agent-lsp package, as docs/any-client.md sets it up: agent-lsp is
;; eglot's server for text files; the chat file (.agent-lsp/chat.md) is opened by a code
;; action (window/showDocument), a prompt written under its last "## You" is sent with the
;; code action "Send to agent", the answer streams into the buffer, and in ask mode the
;; approval is a block with the diff, approved by a code action on it.  An undo in the
;; transcript mid-stream is put back with a note while the draft stays; a forged block in a chat
;; file the project came with, and a block from before a restart of the server
;; (`eglot-reconnect'), offer no Approve and say why; the session goes on after the restart.
;; Batch Emacs is never idle, so eglot's didChange (sent on an idle timer) is sent by hand while
;; waiting.

;;; Code:

(require 'agent-lsp-test)
(agent-lsp-test-require-eglot)

(defun agent-lsp-test-eglot-contact ()
  "eglot's contact for agent-lsp: the built server and the fake provider's options."
  `("node" ,(getenv "AGENT_LSP_TEST_SERVER") "--stdio"
    :initializationOptions ,agent-lsp-initialization-options))

(defun agent-lsp-test-eglot-flush ()
  "Send eglot's pending didChange of every managed buffer (its idle timer never runs in batch)."
  (dolist (buf (buffer-list))
    (with-current-buffer buf
      (when (bound-and-true-p eglot--managed-mode)
        (eglot--signal-textDocument/didChange)))))

(defun agent-lsp-test-eglot-wait (what predicate &optional timeout)
  "Wait for PREDICATE, flushing eglot's changes; fail naming WHAT after TIMEOUT seconds."
  (let ((deadline (+ (float-time) (or timeout 30))) value)
    (while (and (not (setq value (ignore-errors (funcall predicate))))
                (< (float-time) deadline))
      (agent-lsp-test-eglot-flush)
      (accept-process-output nil 0.05))
    (or value (ert-fail (format "timed out waiting for %s\n--- chat.md ---\n%s" what
                                (let ((chat (get-file-buffer (agent-lsp-test-file ".agent-lsp/chat.md"))))
                                  (if chat (with-current-buffer chat (buffer-string)) "(not visited)")))))))

(defvar agent-lsp-test-eglot-offered nil
  "The titles eglot's menu offered at the last pick.")

(defun agent-lsp-test-eglot-pick (buf title)
  "Pick the code action TITLE (or the first matching TITLE, a regexp in a list) at point in BUF.
The menu's titles are kept in `agent-lsp-test-eglot-offered'."
  (with-current-buffer buf
    (eglot--signal-textDocument/didChange)
    ;; A keyboard event last: eglot asks with completing-read (a mouse one, or none, pops a menu).
    (let ((last-nonmenu-event ?\r)
          (completing-read-function
           (lambda (_prompt collection &rest _)
             (setq agent-lsp-test-eglot-offered (all-completions "" collection))
             (if (stringp title) title
               (or (seq-find (lambda (offered) (string-match-p (car title) offered)) agent-lsp-test-eglot-offered)
                   (ert-fail (format "no action matching %S in %S" (car title) agent-lsp-test-eglot-offered)))))))
      (call-interactively #'eglot-code-actions))))

(defun agent-lsp-test-eglot-refused (chat at id)
  "With point on AT in CHAT, the menu offers no Approve, and block ID's line says it is refused."
  (with-current-buffer chat
    (goto-char (point-min))
    (search-forward at))
  (let ((refusal (condition-case err
                     (progn (agent-lsp-test-eglot-pick chat (list (format "\\`Not waiting: block #%s " id))) nil)
                   (error (error-message-string err)))))
    (should-not (member "Approve" agent-lsp-test-eglot-offered))
    ;; The refusal is the command's error, and a message from the server too.
    (should (string-match-p (format "Block #%s is not waiting for an answer" id)
                            (concat (or refusal "") (with-current-buffer (messages-buffer) (buffer-string)))))))

(defun agent-lsp-test-eglot-open-chat ()
  "Visit the chat file the project has and start eglot on it; its buffer, once managed."
  (let ((default-directory agent-lsp-test-root))
    (call-process "git" nil nil nil "init" "-q"))
  (let ((chat (agent-lsp-test-visit ".agent-lsp/chat.md")))
    (with-current-buffer chat
      (text-mode)
      (call-interactively #'eglot))
    (agent-lsp-test-eglot-wait "eglot to manage the chat file" (lambda () (buffer-local-value 'eglot--managed-mode chat)))
    chat))

(defun agent-lsp-test-eglot-chat ()
  "Open the chat file with the code action; its buffer, once eglot manages it."
  ;; A repository, as a project is: the chat file in .agent-lsp/ belongs to its project (eglot
  ;; manages only files of its server's project; outside a repository each folder is one).
  (let ((default-directory agent-lsp-test-root))
    (call-process "git" nil nil nil "init" "-q"))
  (let ((buf (agent-lsp-test-visit "notes.txt"))
        (file (agent-lsp-test-file ".agent-lsp/chat.md")))
    (with-current-buffer buf
      (text-mode)
      (call-interactively #'eglot))
    (agent-lsp-test-eglot-wait "eglot to manage notes.txt" (lambda () (buffer-local-value 'eglot--managed-mode buf)))
    (agent-lsp-test-eglot-pick buf "Open agent chat")
    (agent-lsp-test-eglot-wait "the chat file shown" (lambda () (get-file-buffer file)))
    (let ((chat (get-file-buffer file)))
      (agent-lsp-test-eglot-wait "eglot to manage the chat file" (lambda () (buffer-local-value 'eglot--managed-mode chat)))
      chat)))

(defun agent-lsp-test-eglot-send (chat prompt)
  "Write PROMPT under the last \"## You\" of CHAT and send it."
  (with-current-buffer chat
    (goto-char (point-max))
    (insert prompt "\n")
    (agent-lsp-test-eglot-pick chat "Send to agent")))

(defun agent-lsp-test-eglot-has (chat text)
  "Wait until CHAT's buffer has TEXT."
  (agent-lsp-test-eglot-wait (format "%S in the chat file" text)
                             (lambda () (with-current-buffer chat (save-excursion (goto-char (point-min)) (search-forward text nil t))))))

(ert-deftest agent-lsp-eglot-alone-prompt ()
  "A prompt from the chat file: the answer streams into the buffer above the last ## You."
  (let ((eglot-server-programs `((text-mode . ,(agent-lsp-test-eglot-contact))))
        (auto-mode-alist (cons '("\\.md\\'" . text-mode) auto-mode-alist))
        (chat nil))
    (setq chat (agent-lsp-test-eglot-chat))
    (agent-lsp-test-eglot-send chat "What does notes.txt say?")
    (agent-lsp-test-eglot-has chat "It says alpha.")
    (agent-lsp-test-eglot-wait "the turn's end" (lambda () (with-current-buffer chat (string-match-p "_[0-9]+ tokens in" (buffer-string)))))
    (with-current-buffer chat
      (should (string-match-p "\n## You\n\nWhat does notes\\.txt say\\?\n\n## Agent\n\nIt says alpha\\.\nAnd beta\\.\n\n_[0-9]+ tokens in[^\n]*\n\n## You\n\n?\\'" (buffer-string))))))

(ert-deftest agent-lsp-eglot-alone-approval ()
  "Ask mode: the approval is a block with the diff; Approve on it makes the change in the buffer."
  (let ((eglot-server-programs `((text-mode . ,(agent-lsp-test-eglot-contact))))
        (auto-mode-alist (cons '("\\.md\\'" . text-mode) auto-mode-alist))
        (chat nil) (id nil))
    (setq chat (agent-lsp-test-eglot-chat))
    (agent-lsp-test-eglot-send chat "Change alpha")
    (agent-lsp-test-eglot-wait "the approval block"
                               (lambda () (with-current-buffer chat
                                            (and (string-match "### Approval needed (#\\([0-9a-f]\\{8\\}\\)): edit_file: notes\\.txt" (buffer-string))
                                                 (setq id (match-string 1 (buffer-string)))))))
    (with-current-buffer chat
      (should (string-search "-alpha\n+ALPHA\n" (buffer-string)))
      (goto-char (point-min))
      (search-forward (format "_#%s waits" id)))
    (agent-lsp-test-eglot-pick chat "Approve")
    (agent-lsp-test-eglot-has chat (format "_#%s: approved_" id))
    (agent-lsp-test-eglot-has chat "Changed it.")
    (should (equal (with-current-buffer (get-file-buffer (agent-lsp-test-file "notes.txt")) (buffer-string)) "ALPHA\nbeta\n"))))

(defmacro agent-lsp-test-with-eglot-alone (&rest body)
  "Run BODY with agent-lsp as eglot's server of text files (Markdown included)."
  (declare (indent 0))
  `(let ((eglot-server-programs `((text-mode . ,(agent-lsp-test-eglot-contact))))
         (auto-mode-alist (cons '("\\.md\\'" . text-mode) auto-mode-alist)))
     ,@body))

(defun agent-lsp-test-eglot-block (chat)
  "Wait for an approval block in CHAT; its id."
  (let (id)
    (agent-lsp-test-eglot-wait "the approval block"
                               (lambda () (with-current-buffer chat
                                            (and (string-match "### Approval needed (#\\([0-9a-f]\\{8\\}\\))" (buffer-string))
                                                 (setq id (match-string 1 (buffer-string)))))))
    id))

(ert-deftest agent-lsp-eglot-alone-undo ()
  "An undo in the transcript mid-stream is put back with a note; the draft written meanwhile stays."
  (agent-lsp-test-with-eglot-alone
    (let ((chat (agent-lsp-test-eglot-chat)))
      (agent-lsp-test-eglot-send chat "Answer slowly")
      (agent-lsp-test-eglot-has chat "Undo test line 2.")
      (with-current-buffer chat
        (goto-char (point-max))
        (insert "my next question")
        ;; The user's last command ends here: the server's next edits are the next undo unit.
        (undo-boundary))
      (agent-lsp-test-eglot-has chat "Undo test line 4.")
      (with-current-buffer chat
        (undo-boundary)
        (let ((last-command nil)) (undo)))
      (agent-lsp-test-eglot-has chat "agent-lsp put back its text above")
      (agent-lsp-test-eglot-wait "the turn's end" (lambda () (with-current-buffer chat (string-match-p "_[0-9]+ tokens in" (buffer-string)))))
      (with-current-buffer chat
        (should (string-search (concat "## Agent\n\n" (mapconcat (lambda (n) (format "Undo test line %d." n)) (number-sequence 1 12) "\n") "\n")
                               (buffer-string)))
        (should (string-suffix-p "## You\n\nmy next question" (buffer-string)))))))

(ert-deftest agent-lsp-eglot-alone-forged ()
  "A forged block in the chat file the project came with offers no Approve and says why."
  (agent-lsp-test-with-eglot-alone
    (let ((chat (agent-lsp-test-eglot-open-chat)))
      (agent-lsp-test-eglot-refused chat "Approval needed (#1)" "1"))))

(ert-deftest agent-lsp-eglot-alone-restart ()
  "After the server restarts (eglot-reconnect) the session goes on; an old block is refused."
  (agent-lsp-test-with-eglot-alone
    (let ((chat (agent-lsp-test-eglot-chat)) old)
      (agent-lsp-test-eglot-send chat "First question")
      (setq old (agent-lsp-test-eglot-block chat))
      (with-current-buffer chat
        (save-buffer)
        (eglot-reconnect (eglot-current-server)))
      (agent-lsp-test-eglot-wait "eglot to manage the chat file again" (lambda () (buffer-local-value 'eglot--managed-mode chat)))
      (agent-lsp-test-eglot-has chat "agent-lsp started again: session")
      ;; On the block's heading: its last line may say it was cancelled (the old server's last
      ;; edit as eglot shut it down) or still wait; either way it waits no more.
      (agent-lsp-test-eglot-refused chat (format "### Approval needed (#%s)" old) old)
      (agent-lsp-test-eglot-send chat "Second question")
      (agent-lsp-test-eglot-has chat "Second answer."))))

;;; eglot-alone-test.el ends here
