;;; agent-lsp.el --- An AI coding agent that runs as a language server  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;; Author: The agent-lsp authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, convenience, processes

;;; Commentary:

;; agent-lsp runs an AI coding agent (Anthropic, OpenAI or Gemini models) in your project
;; as a stdio language server.  This package is its Emacs front end: a chat buffer per
;; project that streams the answer, a review of proposed changes hunk by hunk, prompts for
;; commands the agent wants to run, and "Ask agent" code actions.  The agent reads your
;; buffers as they are (unsaved text included) and its edits land in them as ordinary,
;; undoable, unsaved changes.
;;
;; The package keeps its own connection per project (jsonrpc.el), so eglot or lsp-mode go
;; on serving the same buffers with your usual language server.
;;
;; Start with M-x agent-lsp-chat.  Bind the command map where you like:
;;
;;   (keymap-global-set "C-c a" agent-lsp-command-map)   ; Emacs 29+
;;   (global-set-key (kbd "C-c a") agent-lsp-command-map)
;;
;; See docs/emacs.md in the agent-lsp repository.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

;;; Options

(defgroup agent-lsp nil
  "An AI coding agent that runs as a language server."
  :group 'tools
  :prefix "agent-lsp-")

(defcustom agent-lsp-server-command '("agent-lsp" "--stdio")
  "The command that starts the server: the program and its arguments."
  :type '(repeat string))

(defcustom agent-lsp-safety-mode nil
  "The safety mode of new sessions; nil uses the server's configured mode."
  :type '(choice (const :tag "The server's default" nil)
                 (const "read_only") (const "plan") (const "ask") (const "auto")
                 (const "full_access")))

(defcustom agent-lsp-model nil
  "The model of new sessions, as \"provider/model-id\"; nil uses the server's."
  :type '(choice (const :tag "The server's default" nil) string))

(defcustom agent-lsp-initialization-options nil
  "Server settings sent as LSP initializationOptions, a plist.
The keys are those of the server's config.toml, for example
\(:model \"anthropic/claude-sonnet-4-5\" :safety \"ask\").  Prefer
`api_key_env' to keys written here."
  :type '(plist :key-type symbol :value-type sexp))

(defcustom agent-lsp-project-root-function #'agent-lsp-project-root
  "Function of one argument, a directory, returning its project root.
The default uses project.el and falls back on the directory itself.
One server runs per root."
  :type 'function)

(defcustom agent-lsp-review-style 'diff
  "How proposed file changes are reviewed: a diff buffer, or ediff."
  :type '(choice (const :tag "Diff buffer with per-hunk keys" diff)
                 (const :tag "Ediff" ediff)))

(defcustom agent-lsp-chat-display-action
  '((display-buffer-reuse-window display-buffer-in-side-window)
    (side . right) (window-width . 0.4))
  "The action `display-buffer' uses to show a chat buffer."
  :type 'sexp)

(defcustom agent-lsp-log-events nil
  "Non-nil to log the JSON-RPC traffic in the *agent-lsp events* buffer.
The servers' stderr is logged there either way.  Takes effect for
servers started afterwards."
  :type 'boolean)

(defconst agent-lsp-modes '("read_only" "plan" "ask" "auto" "full_access")
  "The safety modes, least to most permissive.")

(require 'agent-lsp-connection)
(require 'agent-lsp-documents)
(require 'agent-lsp-edits)
(require 'agent-lsp-language)
(require 'agent-lsp-render)
(require 'agent-lsp-chat)
(require 'agent-lsp-waiting)
(require 'agent-lsp-prompts)
(require 'agent-lsp-plan)
(require 'agent-lsp-review)
(require 'agent-lsp-actions)
(require 'agent-lsp-doctor)

;;; Commands

(defun agent-lsp--current-root ()
  "The project root of the current buffer (a chat's own root in a chat)."
  (if (derived-mode-p 'agent-lsp-chat-mode)
      agent-lsp--chat-root
    (agent-lsp--root-of (if buffer-file-name (file-name-directory buffer-file-name) default-directory))))

(defun agent-lsp--current-chat ()
  "The chat buffer of the current project, created when needed."
  (agent-lsp-chat-buffer (agent-lsp--current-root)))

;;;###autoload
(defun agent-lsp-chat ()
  "Open the chat of the current project, starting its server and a session."
  (interactive)
  (let* ((root (agent-lsp--current-root))
         (buf (agent-lsp-chat-buffer root)))
    (agent-lsp-chat-show buf t)
    (agent-lsp-with-session root #'ignore)
    buf))

;;;###autoload
(defun agent-lsp-ask (prompt &optional beg end)
  "Ask the agent PROMPT about the current buffer, and the region BEG..END if given.
Interactively, reads PROMPT and uses the active region."
  (interactive (append (list (read-string "Ask agent: "))
                       (and (use-region-p) (list (region-beginning) (region-end)))))
  (when (string-empty-p (string-trim prompt)) (user-error "Nothing to ask"))
  (agent-lsp-ask-with-context prompt beg end))

;;;###autoload
(defun agent-lsp-actions (&optional beg end action)
  "Offer the agent's code actions for the region BEG..END, or for point.
ACTION, a string, picks the action whose title contains it without asking."
  (interactive (and (use-region-p) (list (region-beginning) (region-end))))
  (agent-lsp-code-actions (or beg (point)) (or end beg (point)) (agent-lsp--choose-action action)))

;;;###autoload
(defun agent-lsp-cancel ()
  "Cancel the turn running in the current project's chat."
  (interactive)
  (let* ((buf (agent-lsp--current-chat))
         (session (buffer-local-value 'agent-lsp--session buf))
         (conn (buffer-local-value 'agent-lsp--chat-conn buf)))
    (if (not (and (buffer-local-value 'agent-lsp--busy buf) conn (jsonrpc-running-p conn)))
        (message "agent-lsp: nothing to cancel")
      ;; Cancel first: a review answered "reject" before would let the turn go on.
      (jsonrpc-notify conn 'agent/cancel (list :sessionId session))
      (agent-lsp-review-close-session conn session)
      (message "agent-lsp: cancelling"))))

;;;###autoload
(defun agent-lsp-new-session ()
  "Start a new session in the current project's chat."
  (interactive)
  (let* ((root (agent-lsp--current-root))
         (buf (agent-lsp-chat-buffer root)))
    (when (buffer-local-value 'agent-lsp--busy buf)
      (user-error "The agent is still answering; cancel it first"))
    (with-current-buffer buf
      (setq agent-lsp--session nil agent-lsp--mode nil agent-lsp--model nil)
      (agent-lsp-chat-note "── new session ──"))
    (agent-lsp-chat-show buf t)
    (agent-lsp-with-session root (lambda (_conn)
                                   (with-current-buffer buf
                                     (agent-lsp-chat-note (format "(session %s)" agent-lsp--session)))))))

;;;###autoload
(defun agent-lsp-sessions (&optional session-id)
  "Load a saved session of the current project into its chat.
SESSION-ID names it; interactively, pick one."
  (interactive)
  (let* ((root (agent-lsp--current-root))
         (buf (agent-lsp-chat-buffer root)))
    (when (buffer-local-value 'agent-lsp--busy buf)
      (user-error "The agent is still answering; cancel it first"))
    (agent-lsp--with-connection
     root
     (lambda (conn)
       (agent-lsp--request
        conn 'agent/listSessions (make-hash-table)
        :success (lambda (result)
                   (let ((sessions (append (plist-get result :sessions) nil)))
                     (if (null sessions)
                         (message "agent-lsp: no saved sessions in this project")
                       (let ((id (or session-id (agent-lsp--pick-session sessions))))
                         (when id (agent-lsp--load-session buf conn id))))))))
     (lambda (why) (with-current-buffer buf (agent-lsp-render-error why))))))

(defun agent-lsp--pick-session (sessions)
  "Ask which of SESSIONS to load; return its id."
  (let* ((items (mapcar (lambda (s)
                          (cons (format "%s  (%s)"
                                        (let ((title (plist-get s :title)))
                                          (if (and title (not (string-empty-p title))) title
                                            (plist-get s :sessionId)))
                                        (or (plist-get s :updatedAt) ""))
                                (plist-get s :sessionId)))
                        sessions))
         (pick (completing-read "Load session: " items nil t)))
    (cdr (assoc pick items))))

(defun agent-lsp--load-session (buf conn id)
  "Load session ID on CONN into the chat BUF; its history is replayed there."
  (with-current-buffer buf
    (let ((inhibit-read-only t))
      (delete-region (point-min) agent-lsp--transcript-end))
    (setq agent-lsp--session id agent-lsp--chat-conn conn agent-lsp--tools (make-hash-table :test #'equal))
    (agent-lsp-chat-note (format "Session %s" id)))
  (agent-lsp-chat-show buf t)
  (agent-lsp--request
   conn 'agent/loadSession (list :sessionId id)
   :success (lambda (result)
              (agent-lsp-render-flush buf)
              (with-current-buffer buf (agent-lsp--use-session result))
              (message "agent-lsp: loaded session %s" id))
   :error (lambda (why _died)
            (with-current-buffer buf (agent-lsp-render-error (concat "loading the session failed: " why))))))

;;;###autoload
(defun agent-lsp-set-mode (mode)
  "Switch the current project's session to the safety MODE.
Without a session yet, MODE applies to the next one."
  (interactive (list (completing-read "Safety mode: " agent-lsp-modes nil t)))
  (unless (member mode agent-lsp-modes)
    (user-error "Unknown mode %S: one of %s" mode (string-join agent-lsp-modes ", ")))
  (let* ((buf (agent-lsp--current-chat))
         (session (buffer-local-value 'agent-lsp--session buf))
         (conn (buffer-local-value 'agent-lsp--chat-conn buf)))
    (if (not (and session conn (jsonrpc-running-p conn)))
        (progn (setq agent-lsp-safety-mode mode)
               (message "agent-lsp: mode %s for the next session" mode))
      (agent-lsp--request
       conn 'agent/setMode (list :sessionId session :mode mode)
       :success (lambda (result)
                  (with-current-buffer buf
                    (setq agent-lsp--mode (or (plist-get result :mode) mode))
                    (agent-lsp-chat-note (format "(mode: %s)" agent-lsp--mode)))
                  (force-mode-line-update t)
                  (message "agent-lsp: mode %s" mode))))))

;;;###autoload
(defun agent-lsp-undo ()
  "Undo the agent's last change in the current project (the server's /undo)."
  (interactive)
  (agent-lsp-chat-command (agent-lsp--current-root) "/undo"))

;;;###autoload
(defun agent-lsp-shutdown (&optional all)
  "Shut down the current project's server.
With ALL (interactively, a prefix argument), shut down every server."
  (interactive "P")
  (let ((conns (if all (agent-lsp--all-connections)
                 (delq nil (list (agent-lsp--live (agent-lsp--current-root)))))))
    (if (null conns)
        (message "agent-lsp: no server running")
      (mapc #'agent-lsp--shutdown conns)
      (message "agent-lsp: shutting down %d server%s" (length conns) (if (cdr conns) "s" "")))))

;;; Keys

(defvar agent-lsp-command-map
  (let ((map (make-sparse-keymap)))
    (define-key map "c" #'agent-lsp-chat)
    (define-key map "a" #'agent-lsp-ask)
    (define-key map "." #'agent-lsp-actions)
    (define-key map "k" #'agent-lsp-cancel)
    (define-key map "n" #'agent-lsp-new-session)
    (define-key map "s" #'agent-lsp-sessions)
    (define-key map "m" #'agent-lsp-set-mode)
    (define-key map "u" #'agent-lsp-undo)
    (define-key map "d" #'agent-lsp-doctor)
    (define-key map "q" #'agent-lsp-shutdown)
    (define-key map "w" #'agent-lsp-goto-waiting)
    map)
  "Prefix keymap of agent-lsp's commands; bind it to a key of your choice.")
(defalias 'agent-lsp-command-map agent-lsp-command-map)

(provide 'agent-lsp)
;;; agent-lsp.el ends here
