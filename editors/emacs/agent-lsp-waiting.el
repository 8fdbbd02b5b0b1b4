;;; agent-lsp-waiting.el --- Approvals and questions asked in the chat, answered on purpose  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; What the server asks (an approval, a question, a change to review) is asked in the chat of
;; its project, as a block with one button per answer.  The block's keys (y, n, a digit ...)
;; work only with point on the block, in the chat: nothing typed into another buffer, or into
;; the chat's prompt area, can answer it.  A prompt that popped up from a timer would read the
;; next key typed anywhere (a `y' typed into your code could run a command); this never does.
;;
;; While a block waits, the chat's mode line and header say so, and so does the mode line of
;; every other buffer; `C-c C-a' in the chat and `agent-lsp-goto-waiting' anywhere move point
;; to the oldest waiting block.  `C-g' on the block is the refusal.  Once answered, the block
;; becomes one line saying what was answered.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'button)
(require 'agent-lsp-render)
(require 'agent-lsp-chat)

(defface agent-lsp-waiting '((t :inherit warning))
  "Face of the first line of a block waiting for an answer."
  :group 'agent-lsp)

(cl-defstruct (agent-lsp--waiting (:constructor agent-lsp--make-waiting))
  "One block of a chat waiting for an answer."
  chat what title choices decline decline-label beg end lines-beg lines-end done)

;;; The mode line

(defun agent-lsp--waiting-all ()
  "Every waiting block, of every chat."
  (let (all)
    (maphash (lambda (_root chat)
               (when (buffer-live-p chat)
                 (setq all (append all (buffer-local-value 'agent-lsp--waiting-blocks chat)))))
             agent-lsp--chats)
    all))

(defun agent-lsp--waiting-global-lighter ()
  "The mode-line text of buffers without agent-lsp's lighter while a block waits."
  (let ((first (car (agent-lsp--waiting-all))))
    (if (and first (not (bound-and-true-p agent-lsp-managed-mode))
             (not (derived-mode-p 'agent-lsp-chat-mode)))
        (format " [agent: %s waiting]" (agent-lsp--waiting-what first))
      "")))

(defconst agent-lsp--waiting-mode-line '(:eval (agent-lsp--waiting-global-lighter))
  "The entry of `global-mode-string' shown while a block waits.")

(defun agent-lsp--waiting-refresh ()
  "Show or hide the mode-line entry to match the waiting blocks."
  (if (agent-lsp--waiting-all)
      (unless (member agent-lsp--waiting-mode-line global-mode-string)
        (setq global-mode-string
              (append (if (listp global-mode-string) global-mode-string (list global-mode-string))
                      (list agent-lsp--waiting-mode-line))))
    (when (listp global-mode-string)
      (setq global-mode-string (delete agent-lsp--waiting-mode-line global-mode-string))))
  (force-mode-line-update t))

;;; Blocks

(defun agent-lsp--waiting-keymap (block)
  "The keymap of BLOCK's text: its answers' keys, and a quit key for the refusal."
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map button-map)
    (dolist (choice (agent-lsp--waiting-choices block))
      (when (car choice)
        (define-key map (kbd (car choice))
                    (lambda () (interactive) (agent-lsp--waiting-choose block choice)))))
    (define-key map (kbd "C-g") (lambda () (interactive) (agent-lsp--waiting-refuse block)))
    (define-key map (kbd "TAB") #'forward-button)
    (define-key map (kbd "<backtab>") #'backward-button)
    map))

(defun agent-lsp--waiting-insert-buttons (block map)
  "Insert BLOCK's answers as buttons with the keymap MAP at the transcript's end."
  (dolist (choice (agent-lsp--waiting-choices block))
    (let ((region (agent-lsp--insert (if (car choice) (format "[%s] %s" (car choice) (cadr choice))
                                       (format "[%s]" (cadr choice)))))
          (inhibit-read-only t))
      (make-text-button (car region) (cdr region)
                        'action (lambda (_button) (agent-lsp--waiting-choose block choice))
                        'keymap map
                        'follow-link t
                        'help-echo (if (car choice) (format "%s (or %s here)" (cadr choice) (car choice))
                                     (cadr choice))))
    (agent-lsp--insert "   "))
  (agent-lsp--insert "\n"))

(defun agent-lsp--waiting-insert (block lines)
  "Write BLOCK, LINES under its title, at the end of the current chat's transcript."
  (let ((beg (marker-position agent-lsp--transcript-end))
        (map (agent-lsp--waiting-keymap block)))
    (agent-lsp--insert (concat (agent-lsp--waiting-title block) "\n") 'face 'agent-lsp-waiting)
    (setf (agent-lsp--waiting-lines-beg block) (copy-marker agent-lsp--transcript-end))
    (dolist (line lines) (agent-lsp--insert (concat line "\n")))
    (setf (agent-lsp--waiting-lines-end block) (copy-marker agent-lsp--transcript-end))
    (agent-lsp--waiting-insert-buttons block map)
    (agent-lsp--insert (format (substitute-command-keys
                                "The keys work with point on this block (\\<agent-lsp-chat-mode-map>\\[agent-lsp-goto-waiting] goes here); C-g: %s.\n")
                               (agent-lsp--waiting-decline-label block))
                       'face 'agent-lsp-note)
    (setf (agent-lsp--waiting-beg block) (copy-marker beg)
          (agent-lsp--waiting-end block) (copy-marker agent-lsp--transcript-end))
    (let ((inhibit-read-only t) (modified (buffer-modified-p)))
      (add-text-properties beg agent-lsp--transcript-end (list 'keymap map 'agent-lsp-waiting block))
      (restore-buffer-modified-p modified))))

(defun agent-lsp--waiting-points-past (from to)
  "Move the points left from FROM up to TO, where a block was just written, to TO.
A point at the transcript's end stays before what is inserted there: on
a block, it would let the next key typed answer it."
  (when (<= from (point) to) (goto-char to))
  (dolist (win (get-buffer-window-list (current-buffer) nil t))
    (when (<= from (window-point win) to) (set-window-point win to))))

(cl-defun agent-lsp-waiting-add (chat &key what title lines choices decline (decline-label "No"))
  "Ask in the chat buffer CHAT with a block of its own; return the block.
WHAT names what waits in the mode line (\"approval\", \"question\").
TITLE is the block's first line and LINES (strings) follow it.
CHOICES is a list of (KEY LABEL FUNCTION), KEY a `kbd' string or nil
for a button only: FUNCTION is called with
the block when the answer is chosen, and answers it with
`agent-lsp-waiting-done' (a `quit' in it, say in a prompt it shows,
leaves the block waiting).  DECLINE is called with the block on a quit
key, which the block's last line calls DECLINE-LABEL."
  (let ((block (agent-lsp--make-waiting :chat chat :what what :title title :choices choices
                                        :decline decline :decline-label decline-label)))
    (agent-lsp-render-flush chat)
    (with-current-buffer chat
      (let ((before (marker-position agent-lsp--transcript-end)))
        (setq agent-lsp--stream nil)
        (agent-lsp--start-block)
        (agent-lsp--waiting-insert block lines)
        (agent-lsp--waiting-points-past before (agent-lsp--waiting-end block)))
      (add-hook 'kill-buffer-hook #'agent-lsp--waiting-chat-killed nil t)
      (setq agent-lsp--waiting-blocks (append agent-lsp--waiting-blocks (list block))))
    (agent-lsp--waiting-refresh)
    ;; Shown, never selected: the user moves there on purpose.
    (unless (get-buffer-window chat 'visible) (agent-lsp-chat-show chat))
    (message "agent-lsp: %s waiting in %s (%s goes there)" what (buffer-name chat)
             (substitute-command-keys "\\[agent-lsp-goto-waiting]"))
    block))

(defun agent-lsp-waiting-set-lines (block lines)
  "Show LINES under the title of the waiting BLOCK instead of its lines so far."
  (unless (agent-lsp--waiting-done block)
    (with-current-buffer (agent-lsp--waiting-chat block)
      (let ((beg (agent-lsp--waiting-lines-beg block)) (end (agent-lsp--waiting-lines-end block))
            (inhibit-read-only t) (modified (buffer-modified-p)))
        (delete-region beg end)
        (let ((region (agent-lsp--insert-at beg (mapconcat (lambda (l) (concat l "\n")) lines ""))))
          (add-text-properties (car region) (cdr region)
                               (list 'keymap (get-text-property (agent-lsp--waiting-beg block) 'keymap)
                                     'agent-lsp-waiting block))
          (set-marker end (cdr region)))
        (restore-buffer-modified-p modified)))))

(defun agent-lsp-waiting-done (block record &optional face)
  "Close BLOCK, answered: its text becomes the line RECORD, in FACE."
  (unless (agent-lsp--waiting-done block)
    (setf (agent-lsp--waiting-done block) t)
    (let ((chat (agent-lsp--waiting-chat block)))
      (when (buffer-live-p chat)
        (with-current-buffer chat
          (setq agent-lsp--waiting-blocks (delq block agent-lsp--waiting-blocks))
          (let ((beg (agent-lsp--waiting-beg block)) (end (agent-lsp--waiting-end block))
                (inhibit-read-only t) (modified (buffer-modified-p)))
            (delete-region beg end)
            (agent-lsp--insert-at beg (concat record "\n") 'face (or face 'agent-lsp-note))
            (restore-buffer-modified-p modified)
            (dolist (marker (list beg end (agent-lsp--waiting-lines-beg block) (agent-lsp--waiting-lines-end block)))
              (set-marker marker nil))))))
    (agent-lsp--waiting-refresh)))

(defun agent-lsp--waiting-chat-killed ()
  "The chat is being killed: what it still asks is answered No."
  (dolist (block (copy-sequence agent-lsp--waiting-blocks))
    (agent-lsp--waiting-refuse block)))

(defun agent-lsp--waiting-choose (block choice)
  "Answer BLOCK with CHOICE, one of its (KEY LABEL FUNCTION)."
  (if (agent-lsp--waiting-done block)
      (message "agent-lsp: this was answered already")
    (funcall (nth 2 choice) block)))

(defun agent-lsp--waiting-refuse (block)
  "Answer BLOCK with its refusal (C-g on it)."
  (unless (agent-lsp--waiting-done block)
    (funcall (agent-lsp--waiting-decline block) block)))

(defun agent-lsp-waiting-at (&optional pos)
  "The waiting block at POS (default point), or nil."
  (let ((block (get-text-property (or pos (point)) 'agent-lsp-waiting)))
    (and block (not (agent-lsp--waiting-done block)) block)))

(defun agent-lsp-read-reason ()
  "Read the words the agent gets with a refusal; nil when there are none."
  (let ((text (string-trim (read-string "Tell the agent why (or what to do instead): "))))
    (and (not (string-empty-p text)) text)))

;;; Going there

(defun agent-lsp--waiting-first (&optional chat)
  "The oldest waiting block of CHAT, else of any chat."
  (or (and chat (car (buffer-local-value 'agent-lsp--waiting-blocks chat)))
      (car (agent-lsp--waiting-all))))

;;;###autoload
(defun agent-lsp-goto-waiting ()
  "Show the chat whose approval or question waits, with point on the block."
  (interactive)
  (let* ((here (and (derived-mode-p 'agent-lsp-chat-mode) (current-buffer)))
         (block (agent-lsp--waiting-first (or here (ignore-errors (agent-lsp--chat-of))))))
    (if (not block)
        (message "agent-lsp: nothing is waiting for an answer")
      (let ((chat (agent-lsp--waiting-chat block)))
        (select-window (or (get-buffer-window chat) (agent-lsp-chat-show chat t)))
        (goto-char (agent-lsp--waiting-beg block))
        (let ((button (next-button (point))))
          (when (and button (< (button-start button) (agent-lsp--waiting-end block)))
            (goto-char (button-start button))))
        (recenter)))))

(provide 'agent-lsp-waiting)
;;; agent-lsp-waiting.el ends here
