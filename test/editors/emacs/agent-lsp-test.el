;;; agent-lsp-test.el --- Helpers for agent-lsp's ERT tests  -*- lexical-binding: t; -*-

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

;;; Answering prompts

(defmacro agent-lsp-test-with-keys (keys &rest body)
  "Run BODY with KEYS (a list of events) waiting to be read by the next prompts."
  (declare (indent 1))
  `(let ((unread-command-events (append ,keys nil)))
     ,@body))

(defun agent-lsp-test-review-buffer ()
  "The open review buffer, or nil."
  (let ((buf (get-buffer "*agent-lsp review*")))
    (and (buffer-live-p buf) buf)))

(defun agent-lsp-test-review-key (key)
  "Press KEY in the review buffer."
  (with-current-buffer (agent-lsp-test-review-buffer)
    (call-interactively (lookup-key agent-lsp-review-mode-map (kbd key)))))

(provide 'agent-lsp-test)
;;; agent-lsp-test.el ends here
