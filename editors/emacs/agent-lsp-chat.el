;;; agent-lsp-chat.el --- The chat buffer of a project  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; One chat buffer per project, `*agent-lsp: NAME*': the transcript on top, then a prompt
;; line, then the text you type.  C-c C-c sends it (a text starting with "/" is one of the
;; server's slash commands), C-c C-k cancels the running turn.  The chat holds the project's
;; current session; when the server was restarted the session is loaded again first, so a
;; conversation goes on after a crash.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)
(require 'agent-lsp-documents)
(require 'agent-lsp-render)

(defvar agent-lsp-safety-mode)
(defvar agent-lsp-model)
(defvar agent-lsp-chat-display-action)

(declare-function agent-lsp-review-close-session "agent-lsp-review" (conn session-id))
(declare-function agent-lsp-cancel "agent-lsp" ())
(declare-function agent-lsp-new-session "agent-lsp" ())
(declare-function agent-lsp-sessions "agent-lsp" (&optional session-id))
(declare-function agent-lsp-set-mode "agent-lsp" (mode))
(declare-function agent-lsp-goto-waiting "agent-lsp-waiting" ())
(declare-function agent-lsp--waiting-what "agent-lsp-waiting" (block))

(defvar agent-lsp--chats (make-hash-table :test #'equal)
  "Project root -> its chat buffer.")

(defvar-local agent-lsp--chat-root nil "The project root of this chat.")
(defvar-local agent-lsp--chat-conn nil "The connection the chat's session lives on.")
(defvar-local agent-lsp--session nil "The chat's session id.")
(defvar-local agent-lsp--mode nil "The session's safety mode.")
(defvar-local agent-lsp--model nil "The session's model.")
(defvar-local agent-lsp--busy nil "Non-nil while a turn runs.")
(defvar-local agent-lsp--waiting-blocks nil
  "The chat's blocks waiting for an answer, oldest first (agent-lsp-waiting.el).")
(defvar-local agent-lsp--silent nil
  "A session id whose replayed history is not shown (reloaded after a restart).")

(defvar agent-lsp-turn-end-functions nil
  "Abnormal hook run with the chat, the connection and the result after a turn.")

(defconst agent-lsp--prompt-line "─── Prompt (C-c C-c sends, C-c C-k cancels) ───"
  "The line between the transcript and the text being typed.")

;;; The mode

(defvar agent-lsp-chat-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'agent-lsp-chat-send)
    (define-key map (kbd "C-c C-k") #'agent-lsp-cancel)
    (define-key map (kbd "TAB") #'agent-lsp-chat-toggle)
    (define-key map (kbd "C-c C-n") #'agent-lsp-new-session)
    (define-key map (kbd "C-c C-s") #'agent-lsp-sessions)
    (define-key map (kbd "C-c C-m") #'agent-lsp-set-mode)
    (define-key map (kbd "C-c C-a") #'agent-lsp-goto-waiting)
    map)
  "Keymap of `agent-lsp-chat-mode'.")

(defalias 'agent-lsp--chat-parent-mode
  (if (require 'markdown-mode nil t) 'markdown-mode 'text-mode)
  "The mode the chat derives from: `markdown-mode' when installed.")

(define-derived-mode agent-lsp-chat-mode agent-lsp--chat-parent-mode "agent-lsp chat"
  "Major mode of agent-lsp's chat buffers.
\\{agent-lsp-chat-mode-map}"
  (setq-local buffer-undo-list t) ; the transcript is a log, not undoable text
  (setq-local truncate-lines nil)
  (setq-local word-wrap t)
  (setq-local mode-line-process '(:eval (agent-lsp--lighter)))
  (setq-local header-line-format '(:eval (agent-lsp--chat-header))))

(defun agent-lsp--chat-header ()
  "The header line of the current chat."
  (format " agent-lsp · %s · %s%s%s%s"
          (agent-lsp--project-name agent-lsp--chat-root)
          (or agent-lsp--session "no session yet")
          (if agent-lsp--mode (concat " · mode " agent-lsp--mode) "")
          (if agent-lsp--model (concat " · " agent-lsp--model) "")
          (let ((waiting (agent-lsp--chat-waiting)))
            (if waiting (propertize (concat " · " waiting) 'face 'warning) ""))))

(defun agent-lsp--chat-waiting ()
  "\"approval waiting\" (or what else waits) while the current chat waits."
  (when agent-lsp--waiting-blocks
    (concat (agent-lsp--waiting-what (car agent-lsp--waiting-blocks)) " waiting")))

(defun agent-lsp--chat-of (&optional buffer)
  "The chat buffer of BUFFER's project (not created), or nil."
  (with-current-buffer (or buffer (current-buffer))
    (if (derived-mode-p 'agent-lsp-chat-mode)
        (current-buffer)
      (let ((chat (gethash (agent-lsp--root-of) agent-lsp--chats)))
        (and (buffer-live-p chat) chat)))))

(defun agent-lsp--lighter ()
  "The mode-line text for the current buffer's project."
  (let ((chat (if agent-lsp--conn
                  (gethash (agent-lsp--root agent-lsp--conn) agent-lsp--chats)
                (and (derived-mode-p 'agent-lsp-chat-mode) (current-buffer)))))
    (if (buffer-live-p chat)
        (with-current-buffer chat
          (format " agent[%s%s]" (or agent-lsp--mode "-")
                  (let ((waiting (agent-lsp--chat-waiting)))
                    (cond (waiting (concat ":" waiting))
                          (agent-lsp--busy ":working")
                          (t "")))))
      " agent")))

(defun agent-lsp-chat-buffer (root)
  "The chat buffer of the project at ROOT, created when needed."
  (let ((buf (gethash root agent-lsp--chats)))
    (if (buffer-live-p buf)
        buf
      (setq buf (generate-new-buffer (format "*agent-lsp: %s*" (agent-lsp--project-name root))))
      (with-current-buffer buf
        (agent-lsp-chat-mode)
        (setq default-directory root agent-lsp--chat-root root
              agent-lsp--tools (make-hash-table :test #'equal))
        (let ((inhibit-read-only t))
          ;; The line break before the prompt line keeps it on its own line while the
          ;; answer streams in without one.
          (insert (propertize (concat "\n" agent-lsp--prompt-line "\n")
                              'read-only t 'front-sticky '(read-only) 'rear-nonsticky t
                              'face 'agent-lsp-note)))
        (setq agent-lsp--transcript-end (copy-marker (point-min) t))
        (add-hook 'kill-buffer-hook #'agent-lsp--chat-killed nil t))
      (puthash root buf agent-lsp--chats)
      buf)))

(defun agent-lsp--chat-killed ()
  "Forget the chat being killed."
  (when (eq (gethash agent-lsp--chat-root agent-lsp--chats) (current-buffer))
    (remhash agent-lsp--chat-root agent-lsp--chats)))

(defun agent-lsp-chat-show (buffer &optional select)
  "Show the chat BUFFER with `agent-lsp-chat-display-action'; SELECT its window."
  (let ((window (display-buffer buffer agent-lsp-chat-display-action)))
    (when window
      (with-selected-window window
        (unless (>= (point) (agent-lsp--input-start)) (goto-char (point-max))))
      (when select (select-window window)))
    window))

(defun agent-lsp--input-start ()
  "Return the position where the text being typed begins."
  (save-excursion (goto-char agent-lsp--transcript-end) (forward-line 2) (point)))

(defun agent-lsp-chat-input ()
  "The text typed under the prompt line."
  (string-trim (buffer-substring-no-properties (agent-lsp--input-start) (point-max))))

;;; Sessions

(defun agent-lsp--use-session (result)
  "Make the session of RESULT (newSession or loadSession) the current chat's."
  (setq agent-lsp--session (plist-get result :sessionId)
        agent-lsp--mode (plist-get result :mode)
        agent-lsp--model (plist-get result :model))
  (force-mode-line-update t))

(defun agent-lsp--new-session (buf conn fn fail)
  "Start a session for the chat BUF on CONN, then call FN; FAIL gets why not."
  (agent-lsp--request
   conn 'agent/newSession
   (append (and agent-lsp-safety-mode (list :mode agent-lsp-safety-mode))
           (and agent-lsp-model (list :model agent-lsp-model)))
   :success (lambda (result)
              (with-current-buffer buf
                (setq agent-lsp--chat-conn conn)
                (agent-lsp--use-session result))
              (funcall fn conn))
   :error (lambda (why died)
            (unless died (funcall fail (concat "starting a session failed: " why))))))

(defun agent-lsp--reload-session (buf conn fn fail)
  "Load BUF's session on CONN, a restarted server, without replaying it; call FN.
A session that cannot be loaded is replaced by a new one, and the chat
says so; FAIL gets why when that fails too."
  (let ((old (buffer-local-value 'agent-lsp--session buf)))
    (with-current-buffer buf (setq agent-lsp--silent old))
    (agent-lsp--request
     conn 'agent/loadSession (list :sessionId old)
     :success (lambda (result)
                (with-current-buffer buf
                  (setq agent-lsp--silent nil agent-lsp--chat-conn conn)
                  (agent-lsp--use-session result))
                (funcall fn conn))
     :error (lambda (why died)
              (with-current-buffer buf (setq agent-lsp--silent nil))
              (unless died
                (with-current-buffer buf
                  (agent-lsp-chat-note (format "(session %s could not be loaded: %s; starting a new one)"
                                               old why)))
                (agent-lsp--new-session buf conn fn fail))))))

(defun agent-lsp-with-session (root fn &optional on-failure)
  "Call FN with ROOT's connection once the chat of ROOT has a live session.
Starts the server, a session, or loads the session again after a
restart.  A failure is written into the chat and shown in the echo
area, then ON-FAILURE is called."
  (let* ((buf (agent-lsp-chat-buffer root))
         (fail (lambda (why)
                 (with-current-buffer buf (agent-lsp-render-error why))
                 (when on-failure (funcall on-failure)))))
    (agent-lsp--with-connection
     root
     (lambda (conn)
       (with-current-buffer buf
         (cond ((and agent-lsp--session (eq agent-lsp--chat-conn conn)) (funcall fn conn))
               (agent-lsp--session (agent-lsp--reload-session buf conn fn fail))
               (t (agent-lsp--new-session buf conn fn fail)))))
     fail)))

;;; Turns

(defun agent-lsp--turn-ended (buf conn result)
  "The turn in BUF on CONN ended with RESULT ({stopReason, error?})."
  (when (buffer-live-p buf)
    (agent-lsp--turn-ended-in buf conn result)))

(defun agent-lsp--turn-ended-in (buf conn result)
  "Write the end of the turn in the live chat BUF on CONN, with RESULT."
  (with-current-buffer buf
    (agent-lsp-render-flush buf)
    (setq agent-lsp--busy nil)
    (force-mode-line-update t)
    (when (fboundp 'agent-lsp-review-close-session)
      (agent-lsp-review-close-session conn agent-lsp--session))
    (pcase (plist-get result :stopReason)
      ((or "end_turn" 'nil) nil)
      ("cancelled" (agent-lsp-chat-note "(cancelled)"))
      ("error" (agent-lsp-render-error (or (plist-get result :error) "the turn failed")))
      (reason (agent-lsp-chat-note (format "(stopped: %s)" reason)))))
  (run-hook-with-args 'agent-lsp-turn-end-functions buf conn result))

(defun agent-lsp--turn-failed (buf why died)
  "The turn request in BUF failed with WHY; DIED when the server is gone."
  (when (buffer-live-p buf)
    (agent-lsp--turn-failed-in buf why died)))

(defun agent-lsp--turn-failed-in (buf why died)
  "Write in the live chat BUF that its turn failed (WHY); DIED: the server is gone."
  (with-current-buffer buf
    (agent-lsp-render-flush buf)
    (setq agent-lsp--busy nil)
    (force-mode-line-update t)
    (unless died (agent-lsp-render-error why))))

(defun agent-lsp-chat-run-turn (root label method params-fn)
  "Run a turn in ROOT's chat: show LABEL as the prompt, send METHOD.
PARAMS-FN is called with the session id and returns the params.
Return nil, without sending, when a turn is already running."
  (let ((buf (agent-lsp-chat-buffer root)))
    (if (buffer-local-value 'agent-lsp--busy buf)
        (progn (message "agent-lsp: the agent is still answering; cancel with C-c C-k") nil)
      (with-current-buffer buf
        (agent-lsp-render-flush buf)
        (agent-lsp-render-user-message label)
        (setq agent-lsp--busy t))
      (force-mode-line-update t)
      (agent-lsp-with-session
       root
       (lambda (conn)
         ;; The agent reads the buffers: send what was typed before asking.
         (agent-lsp--flush-all conn)
         (agent-lsp--request
          conn method (funcall params-fn (buffer-local-value 'agent-lsp--session buf))
          :timeout nil
          :success (lambda (result) (agent-lsp--turn-ended buf conn result))
          :error (lambda (why died) (agent-lsp--turn-failed buf why died))))
       (lambda ()
         (with-current-buffer buf (setq agent-lsp--busy nil))
         (force-mode-line-update t)))
      t)))

(defun agent-lsp-chat-prompt (root text &optional context)
  "Send TEXT to ROOT's chat as a prompt with CONTEXT ({uri, range}).
A TEXT starting with \"/\" (and no CONTEXT) runs a slash command."
  (if (and (string-prefix-p "/" text) (not context))
      (agent-lsp-chat-command root text)
    (agent-lsp-chat-run-turn
     root text 'agent/prompt
     (lambda (session)
       (append (list :sessionId session :prompt text) (and context (list :context context)))))))

(defun agent-lsp-chat-command (root text)
  "Run the slash command TEXT (\"/undo\", \"/mode ask\" ...) in ROOT's session."
  (let* ((buf (agent-lsp-chat-buffer root))
         (words (split-string (string-trim text)))
         (command (car words)))
    (with-current-buffer buf
      (agent-lsp-render-flush buf)
      (agent-lsp-render-user-message text)
      (setq agent-lsp--need-heading nil))
    (agent-lsp-with-session
     root
     (lambda (conn)
       (agent-lsp--flush-all conn)
       (agent-lsp--request
        conn 'agent/command
        (list :sessionId (buffer-local-value 'agent-lsp--session buf)
              :command command :args (vconcat (cdr words)))
        :timeout 120
        :success (lambda (result)
                   (with-current-buffer buf
                     (let ((text (or (plist-get result :message) "")))
                       (agent-lsp-chat-note text 'default)
                       (message "agent-lsp: %s" (car (split-string text "\n")))
                       (when (string= command "/mode")
                         (setq agent-lsp--mode (or (cadr words) agent-lsp--mode))))))
        :error (lambda (why died)
                 (unless died (with-current-buffer buf (agent-lsp-render-error why)))))))))

;;; Commands in the chat

(defun agent-lsp-chat-send ()
  "Send the text typed under the prompt line."
  (interactive)
  (let ((text (agent-lsp-chat-input)))
    (cond ((string-empty-p text) (message "agent-lsp: type your prompt under the prompt line first"))
          (agent-lsp--busy (message "agent-lsp: the agent is still answering; cancel with C-c C-k"))
          (t (let ((inhibit-read-only t)) (delete-region (agent-lsp--input-start) (point-max)))
             (set-buffer-modified-p nil)
             (agent-lsp-chat-prompt agent-lsp--chat-root text)))))

(defun agent-lsp-chat-toggle ()
  "Show or hide the thought or tool call at point, else move to the next one."
  (interactive)
  (unless (agent-lsp-toggle-section)
    (if (< (point) agent-lsp--transcript-end)
        (forward-button 1 t)
      (indent-for-tab-command))))

;;; Server notifications

(defun agent-lsp--chat-for-session (conn session)
  "The chat buffer showing SESSION of CONN's project, or nil."
  (let ((buf (gethash (agent-lsp--root conn) agent-lsp--chats)))
    (and (buffer-live-p buf)
         (equal (buffer-local-value 'agent-lsp--session buf) session)
         buf)))

(defun agent-lsp--handle-update (conn params)
  "Queue the agent/update PARAMS from CONN for its chat."
  (let ((buf (agent-lsp--chat-for-session conn (plist-get params :sessionId))))
    (when (and buf (not (equal (buffer-local-value 'agent-lsp--silent buf)
                               (plist-get params :sessionId))))
      (agent-lsp-render-enqueue buf (plist-get params :update)))))

(defun agent-lsp--chat-server-stopped (conn text)
  "Tell the chat of CONN's project that its server stopped, with TEXT."
  (let ((buf (gethash (agent-lsp--root conn) agent-lsp--chats)))
    (when (buffer-live-p buf)
      (with-current-buffer buf
        (agent-lsp-render-flush buf)
        (when (and (or agent-lsp--busy (eq agent-lsp--chat-conn conn))
                   (not (equal text agent-lsp--turn-error)))
          (agent-lsp-chat-note (format "(%s)" text) 'agent-lsp-error)
          (setq agent-lsp--turn-error text))
        (setq agent-lsp--busy nil)
        (force-mode-line-update t)))))

(agent-lsp--on-notification 'agent/update #'agent-lsp--handle-update)
(add-hook 'agent-lsp-connection-shutdown-functions #'agent-lsp--chat-server-stopped)

(provide 'agent-lsp-chat)
;;; agent-lsp-chat.el ends here
