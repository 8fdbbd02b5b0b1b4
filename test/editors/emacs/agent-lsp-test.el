;;; agent-lsp-test.el --- Helpers for agent-lsp's ERT tests  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Commentary:

;; Loaded by every spec in batch Emacs (test/editors/emacs.test.ts runs them): points the
;; package at the built server and the fake provider, and provides waiting, typing and
;; answering helpers.  The vitest side sets:
;;   AGENT_LSP_TEST_OPTIONS  a JSON file: the server's initializationOptions (fake provider)
;;   AGENT_LSP_TEST_SERVER   the built server bundle
;;   AGENT_LSP_TEST_DATA     JSON data for the spec
;;   AGENT_LSP_TEST_REPO     the repository root

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'agent-lsp)

(defvar agent-lsp-test-data
  (let ((raw (getenv "AGENT_LSP_TEST_DATA")))
    (and raw (not (string-empty-p raw))
         (json-parse-string raw :object-type 'plist :null-object nil :false-object nil)))
  "The spec's data from the vitest side.")

(defvar agent-lsp-test-repo (getenv "AGENT_LSP_TEST_REPO") "The repository root.")

(defun agent-lsp-test-require-eglot ()
  "Load eglot: built in from Emacs 29, from ELPA before (Debian: elpa-eglot)."
  (unless (require 'eglot nil t)
    (dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
      (add-to-list 'load-path dir t))
    (require 'eglot)))

(defun agent-lsp-test-read-json (file)
  "FILE's JSON as a plist the package sends back unchanged."
  (with-temp-buffer
    (insert-file-contents file)
    (json-parse-buffer :object-type 'plist :null-object nil :false-object :json-false)))

(setq agent-lsp-server-command (list "node" (getenv "AGENT_LSP_TEST_SERVER") "--stdio")
      agent-lsp-initialization-options (agent-lsp-test-read-json (getenv "AGENT_LSP_TEST_OPTIONS"))
      agent-lsp-chat-display-action '((display-buffer-same-window))
      ;; Every file of the temporary project belongs to it (it is no VCS repository).
      agent-lsp-project-root-function (lambda (_dir) default-directory)
      make-backup-files nil
      create-lockfiles nil
      auto-save-default nil)

(defvar agent-lsp-test-root (file-name-as-directory default-directory)
  "The temporary project the spec runs in.")

;; A spec never leaves a server behind.
(add-hook 'kill-emacs-hook
          (lambda () (dolist (p (process-list)) (ignore-errors (delete-process p)))))

;;; Waiting

(defun agent-lsp-test-wait (what predicate &optional timeout)
  "Process events until PREDICATE is non-nil; fail naming WHAT after TIMEOUT seconds."
  (let ((deadline (+ (float-time) (or timeout 20))) value)
    (while (and (not (setq value (ignore-errors (funcall predicate))))
                (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (or value (ert-fail (format "timed out waiting for %s\n--- chat ---\n%s\n--- events ---\n%s"
                                what
                                (let ((chat (gethash agent-lsp-test-root agent-lsp--chats)))
                                  (if (buffer-live-p chat) (with-current-buffer chat (buffer-substring-no-properties (point-min) (point-max))) ""))
                                (let ((ev (get-buffer "*agent-lsp events*")))
                                  (if ev (with-current-buffer ev (buffer-substring-no-properties (point-min) (point-max))) "")))))))

(defun agent-lsp-test-pause (seconds)
  "Process events for SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline) (accept-process-output nil 0.02))))

;;; The chat

(defun agent-lsp-test-chat ()
  "The project's chat buffer."
  (agent-lsp-chat-buffer agent-lsp-test-root))

(defun agent-lsp-test-chat-text ()
  "The text of the project's chat, folded parts included."
  (with-current-buffer (agent-lsp-test-chat) (buffer-substring-no-properties (point-min) (point-max))))

(defun agent-lsp-test-chat-has (text &optional timeout)
  "Wait until the chat shows TEXT; fail after TIMEOUT seconds."
  (agent-lsp-test-wait (format "%S in the chat:\n%s" text (agent-lsp-test-chat-text))
                       (lambda () (string-search text (agent-lsp-test-chat-text)))
                       timeout))

(defun agent-lsp-test-busy-p ()
  "Non-nil while the chat's turn runs."
  (buffer-local-value 'agent-lsp--busy (agent-lsp-test-chat)))

(defun agent-lsp-test-wait-idle (&optional timeout)
  "Wait until the chat's turn ended; fail after TIMEOUT seconds."
  (agent-lsp-test-wait "the turn to end" (lambda () (not (agent-lsp-test-busy-p))) timeout))

(defun agent-lsp-test-send (text)
  "Type TEXT into the chat's prompt area and press C-c C-c."
  (with-current-buffer (agent-lsp-test-chat)
    (goto-char (point-max))
    (insert text)
    (call-interactively (key-binding (kbd "C-c C-c")))))

(defun agent-lsp-test-start-chat ()
  "Open the chat and wait for its session; return the chat buffer."
  (agent-lsp-chat)
  (agent-lsp-test-wait "the session" (lambda () (buffer-local-value 'agent-lsp--session (agent-lsp-test-chat))))
  (agent-lsp-test-chat))

;;; Files

(defun agent-lsp-test-file (name)
  "The absolute name of the project file NAME."
  (expand-file-name name agent-lsp-test-root))

(defun agent-lsp-test-disk (name)
  "The text of the project file NAME on disk."
  (with-temp-buffer (insert-file-contents (agent-lsp-test-file name)) (buffer-string)))

(defun agent-lsp-test-visit (name)
  "Visit the project file NAME; return its buffer."
  (find-file-noselect (agent-lsp-test-file name)))

(defun agent-lsp-test-wait-open (buffer)
  "Wait until the server has BUFFER open."
  (agent-lsp-test-wait (format "%s to be open on the server" buffer)
                       (lambda () (buffer-local-value 'agent-lsp--conn buffer))))

(defun agent-lsp-test-text (buffer)
  "The text of BUFFER."
  (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max))))

;;; Typing

(defun agent-lsp-test-show (buffer)
  "The window showing BUFFER; else show it in the selected window and return that."
  (or (get-buffer-window buffer)
      (progn (switch-to-buffer buffer) (selected-window))))

(defun agent-lsp-test-type (buffer keys)
  "Type KEYS (a string or vector) into BUFFER as a user would, one key at a time.
Each key first waits, unread, while timers and process output run (a
prompt a timer opened now would read it), then the command loop
runs it in BUFFER's window."
  (with-selected-window (agent-lsp-test-show buffer)
    (dolist (key (append keys nil))
      (setq unread-command-events (list key))
      (accept-process-output nil 0.01)
      (when unread-command-events
        (setq unread-command-events nil)
        (execute-kbd-macro (vector key))))))

;;; Answering in the chat

(defun agent-lsp-test-block (&optional text timeout)
  "Wait for a block waiting in the chat (whose text has TEXT); return it.
Fail after TIMEOUT seconds."
  (agent-lsp-test-wait (format "a block waiting in the chat%s" (if text (format " with %S" text) ""))
                       (lambda ()
                         (cl-find-if (lambda (block)
                                       (or (null text)
                                           (string-search text (agent-lsp-test-block-text block))))
                                     (buffer-local-value 'agent-lsp--waiting-blocks (agent-lsp-test-chat))))
                       timeout))

(defun agent-lsp-test-block-text (block)
  "The text of the waiting BLOCK."
  (with-current-buffer (agent-lsp--waiting-chat block)
    (buffer-substring-no-properties (agent-lsp--waiting-beg block) (agent-lsp--waiting-end block))))

(defun agent-lsp-test-press (keys)
  "Go to the waiting block as a user would (C-c C-a in the chat), then press KEYS."
  (select-window (agent-lsp-test-show (agent-lsp-test-chat)))
  (goto-char (point-max))
  (execute-kbd-macro (kbd "C-c C-a"))
  (should (agent-lsp-waiting-at))
  (execute-kbd-macro (if (stringp keys) (kbd keys) keys)))

(defmacro agent-lsp-test-with-reason (reason &rest body)
  "Run BODY with REASON typed into the next minibuffer prompt for a reason.
\(Batch Emacs reads the minibuffer from stdin, not from keyboard macros.)"
  (declare (indent 1))
  `(cl-letf (((symbol-function 'read-string)
              (lambda (prompt &rest _)
                (should (string-search "Tell the agent why" prompt))
                ,reason)))
     ,@body))

;;; The review

(defun agent-lsp-test-review-buffer ()
  "The open review buffer, or nil."
  (let ((buf (get-buffer "*agent-lsp review*")))
    (and (buffer-live-p buf) buf)))

(defun agent-lsp-test-wait-review (&optional file)
  "Wait for the review buffer (showing FILE when given)."
  (agent-lsp-test-wait (format "the review%s" (if file (concat " of " file) ""))
                       (lambda ()
                         (let ((buf (agent-lsp-test-review-buffer)))
                           (and buf (or (null file)
                                        (with-current-buffer buf
                                          (save-excursion
                                            (goto-char (point-min))
                                            (search-forward (concat ": " file " ") 2000 t)))))))
                       60))

(defun agent-lsp-test-review-key (key)
  "Press KEY in the review buffer."
  (with-current-buffer (agent-lsp-test-review-buffer)
    (call-interactively (lookup-key agent-lsp-review-mode-map (kbd key)))))

(provide 'agent-lsp-test)
;;; agent-lsp-test.el ends here
