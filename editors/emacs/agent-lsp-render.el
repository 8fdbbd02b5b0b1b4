;;; agent-lsp-render.el --- Write the agent's updates into a chat transcript  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The transcript is the read-only text above the chat's prompt line.  `agent/update'
;; notifications are queued and written in batches every `agent-lsp-chat-refresh-interval'
;; seconds, consecutive pieces of the answer joined into one insertion: a long answer
;; streams without a redisplay per piece.  Thinking and each tool call's input and output
;; are folded under a one-line header that TAB (or RET, or a click) opens.

;;; Code:

(require 'cl-lib)
(require 'button)

(defvar agent-lsp-chat-refresh-interval 0.05
  "Seconds between two writes of streamed updates into a chat.")

(defconst agent-lsp--detail-max-lines 200
  "Lines of a tool call's input or output shown at most.")

(defvar-local agent-lsp--transcript-end nil
  "Marker where the transcript ends and the prompt line starts.")
(defvar-local agent-lsp--stream nil
  "Kind of the block being streamed into: `text', `thought' or nil.")
(defvar-local agent-lsp--stream-fold nil
  "Invisibility symbol of the thought block being streamed.")
(defvar-local agent-lsp--need-heading nil
  "Non-nil until the agent's first output of the turn.")
(defvar-local agent-lsp--tools nil
  "Tool call id -> its entry (a plist of markers and state).")
(defvar-local agent-lsp--plan nil
  "Markers (BEG . END) of the turn's plan block.")
(defvar-local agent-lsp--queue nil
  "Updates not written yet, newest first.")
(defvar-local agent-lsp--queue-timer nil
  "Timer that writes the queued updates.")
(defvar-local agent-lsp--turn-error nil
  "The error the turn reported, once shown.")

(defface agent-lsp-heading '((t :inherit bold))
  "Face of the \"You\" and \"Agent\" headings."
  :group 'agent-lsp)
(defface agent-lsp-note '((t :inherit shadow))
  "Face of the package's own notes, usage and status lines."
  :group 'agent-lsp)
(defface agent-lsp-error '((t :inherit error))
  "Face of errors in the chat."
  :group 'agent-lsp)
(defface agent-lsp-tool '((t :inherit font-lock-function-name-face))
  "Face of tool call lines."
  :group 'agent-lsp)

;;; Inserting

(defun agent-lsp--insert-at (pos text &rest props)
  "Insert read-only TEXT with PROPS at POS; return (BEG . END)."
  (let ((inhibit-read-only t) (modified (buffer-modified-p)))
    (prog1 (save-excursion
             (goto-char pos)
             (let ((beg (point)))
               ;; Front-sticky: nothing can be typed into the transcript, only after it.
               (insert (apply #'propertize text 'read-only t 'front-sticky '(read-only)
                              'rear-nonsticky t props))
               (cons beg (point))))
      ;; The transcript is no text to save: writing it leaves the modified flag alone.
      (restore-buffer-modified-p modified))))

(defun agent-lsp--insert (text &rest props)
  "Insert TEXT with PROPS at the end of the transcript; return (BEG . END)."
  (apply #'agent-lsp--insert-at agent-lsp--transcript-end text props))

(defun agent-lsp--start-block ()
  "End the current line and leave one blank line before the next block."
  (when agent-lsp--stream-fold
    ;; Close the folded thought: its last line break hides with it.
    (unless (eq (char-before agent-lsp--transcript-end) ?\n)
      (agent-lsp--insert "\n" 'invisible agent-lsp--stream-fold))
    (setq agent-lsp--stream-fold nil))
  (let ((end (marker-position agent-lsp--transcript-end)))
    (cond ((= end (point-min)) nil)
          ((not (eq (char-before end) ?\n)) (agent-lsp--insert "\n\n"))
          ((and (> end (1+ (point-min))) (not (eq (char-before (1- end)) ?\n)))
           (agent-lsp--insert "\n")))))

(defun agent-lsp--heading (text)
  "Insert the heading TEXT as a block of its own."
  (agent-lsp--start-block)
  (agent-lsp--insert (concat "## " text "\n") 'face 'agent-lsp-heading))

(defun agent-lsp-chat-note (text &optional face)
  "Write TEXT into the current chat's transcript as a block of its own, in FACE."
  (setq agent-lsp--stream nil)
  (agent-lsp--start-block)
  (agent-lsp--insert (concat text "\n") 'face (or face 'agent-lsp-note)))

(defun agent-lsp--agent-heading ()
  "Write the turn's \"Agent\" heading before its first output."
  (when agent-lsp--need-heading
    (setq agent-lsp--need-heading nil)
    (agent-lsp--heading "Agent")))

;;; Folds

(defvar agent-lsp-section-header-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map button-map)
    ;; Emacs 30's `button-map' moves to the next button on TAB; here TAB opens the section.
    (define-key map (kbd "TAB") #'agent-lsp-toggle-section-at-point)
    map)
  "Keymap of the header line of a thought or a tool call.")

(defun agent-lsp-toggle-section-at-point ()
  "Show or hide the thought or tool call whose header is at point."
  (interactive)
  (agent-lsp-toggle-section))

(defun agent-lsp--new-fold ()
  "A new folded section's invisibility symbol (hidden to start with)."
  (let ((sym (make-symbol "agent-lsp-fold")))
    (add-to-invisibility-spec sym)
    sym))

(defun agent-lsp--fold-open-p (sym)
  "Non-nil when the section of SYM is shown."
  (not (memq sym buffer-invisibility-spec)))

(defun agent-lsp--insert-header (text sym &optional pos)
  "Insert the header TEXT of the section SYM as a button at POS; return its region.
POS defaults to the end of the transcript."
  (let* ((arrow (if (agent-lsp--fold-open-p sym) "▾ " "▸ "))
         (region (agent-lsp--insert-at (or pos agent-lsp--transcript-end) (concat arrow text)
                                       'agent-lsp-fold sym 'face 'agent-lsp-tool))
         (inhibit-read-only t))
    (make-text-button (car region) (cdr region)
                      'action #'agent-lsp--toggle-button 'agent-lsp-fold sym
                      'keymap agent-lsp-section-header-map
                      'face 'agent-lsp-tool 'follow-link t
                      'help-echo "TAB or RET: show or hide the details")
    region))

(defun agent-lsp--toggle-button (button)
  "Show or hide the section of BUTTON."
  (agent-lsp-toggle-section (button-start button)))

(defun agent-lsp-toggle-section (&optional pos)
  "Show or hide the thought or tool call whose header is at POS (default point).
Return non-nil when there was one."
  (let* ((pos (or pos (point)))
         (sym (or (get-text-property pos 'agent-lsp-fold)
                  (get-text-property (save-excursion (goto-char pos) (line-beginning-position))
                                     'agent-lsp-fold))))
    (when sym
      (if (agent-lsp--fold-open-p sym)
          (add-to-invisibility-spec sym)
        (remove-from-invisibility-spec sym))
      (let ((start (text-property-any (point-min) (point-max) 'agent-lsp-fold sym))
            (inhibit-read-only t))
        (when start
          (save-excursion
            (goto-char start)
            (when (looking-at "[▸▾]")
              (let ((props (text-properties-at start)))
                (delete-char 1)
                (insert (apply #'propertize (if (agent-lsp--fold-open-p sym) "▾" "▸") props)))))))
      t)))

;;; Details of a tool call

(defun agent-lsp--detail-lines (label value)
  "Indented lines showing VALUE under LABEL."
  (let* ((text (cond ((stringp value) value)
                     ((null value) "")
                     (t (condition-case nil
                            (json-serialize value :null-object nil :false-object :json-false)
                          (error (format "%S" value))))))
         (lines (split-string (string-trim-right text "\n") "\n")))
    (if (<= (length lines) 1)
        (format "    %s: %s\n" label (or (car lines) ""))
      (concat (format "    %s:\n" label)
              (mapconcat (lambda (l) (concat "      " l "\n"))
                         (seq-take lines agent-lsp--detail-max-lines) "")
              (if (> (length lines) agent-lsp--detail-max-lines)
                  (format "      ... (%d more lines)\n"
                          (- (length lines) agent-lsp--detail-max-lines))
                "")))))

(defun agent-lsp--input-lines (input)
  "Lines showing a tool call's INPUT (a plist from JSON, or another value)."
  (cond ((and (consp input) (keywordp (car input)))
         (cl-loop for (key value) on input by #'cddr
                  concat (agent-lsp--detail-lines (substring (symbol-name key) 1) value)))
        ((null input) "")
        (t (agent-lsp--detail-lines "input" input))))

(defun agent-lsp--status-label (status)
  "The word shown for a tool call's STATUS."
  (pcase status
    ("completed" "done") ("failed" "failed") ("running" "running") (_ (or status "pending"))))

(defun agent-lsp--tool-header (entry)
  "The header text of the tool call ENTRY."
  (format "[%s] %s" (agent-lsp--status-label (plist-get entry :status)) (plist-get entry :title)))

(defun agent-lsp--render-tool-call (u)
  "Write the tool call update U as a header line and folded input."
  (agent-lsp--agent-heading)
  (setq agent-lsp--stream nil)
  (agent-lsp--start-block)
  (let* ((title (let ((title (plist-get u :title)))
                  (if (and (stringp title) (not (string-empty-p title))) title (plist-get u :name))))
         (sym (agent-lsp--new-fold))
         (entry (list :title title :status (plist-get u :status) :fold sym))
         (header (agent-lsp--insert-header (agent-lsp--tool-header entry) sym)))
    (agent-lsp--insert "\n")
    (agent-lsp--insert (agent-lsp--input-lines (plist-get u :input)) 'invisible sym)
    (let ((end (marker-position agent-lsp--transcript-end)))
      (setq entry (append (list :hb (copy-marker (car header)) :he (copy-marker (cdr header))
                                :ob (copy-marker end) :oe (copy-marker end))
                          entry)))
    (puthash (plist-get u :id) entry agent-lsp--tools)))

(defun agent-lsp--render-tool-update (u)
  "Update the status and output of the tool call of U."
  (let ((entry (gethash (plist-get u :id) agent-lsp--tools)))
    (unless entry
      ;; A call this chat never saw start (a replay from elsewhere): show it anyway.
      (agent-lsp--render-tool-call (list :id (plist-get u :id) :name "tool"
                                         :title (format "tool %s" (plist-get u :id))))
      (setq entry (gethash (plist-get u :id) agent-lsp--tools)))
    (when (plist-get u :status) (setq entry (plist-put entry :status (plist-get u :status))))
    (puthash (plist-get u :id) entry agent-lsp--tools)
    (let ((inhibit-read-only t) (sym (plist-get entry :fold))
          (hb (plist-get entry :hb)) (he (plist-get entry :he)))
      (delete-region hb he)
      (set-marker he (cdr (agent-lsp--insert-header (agent-lsp--tool-header entry) sym hb)))
      (when (or (plist-get u :output) (plist-get u :diff))
        (let ((ob (plist-get entry :ob)) (oe (plist-get entry :oe)))
          (delete-region ob oe)
          (set-marker oe (cdr (agent-lsp--insert-at
                               ob (concat (and (plist-get u :output)
                                               (agent-lsp--detail-lines "output" (plist-get u :output)))
                                          (and (plist-get u :diff)
                                               (agent-lsp--detail-lines "diff" (plist-get u :diff))))
                               'invisible sym))))))))

;;; Other updates

(defun agent-lsp--render-stream (kind text)
  "Append TEXT to the streamed block of KIND (`text' or `thought')."
  (agent-lsp--agent-heading)
  (unless (eq agent-lsp--stream kind)
    (agent-lsp--start-block)
    (setq agent-lsp--stream kind)
    (when (eq kind 'thought)
      (setq agent-lsp--stream-fold (agent-lsp--new-fold))
      (agent-lsp--insert-header "Thinking" agent-lsp--stream-fold)
      (agent-lsp--insert "\n")))
  (if (eq kind 'thought)
      (agent-lsp--insert text 'invisible agent-lsp--stream-fold 'face 'agent-lsp-note)
    (agent-lsp--insert text)))

(defun agent-lsp--render-plan (u)
  "Write the plan of U, replacing the turn's previous plan."
  (agent-lsp--agent-heading)
  (setq agent-lsp--stream nil)
  (let ((text (concat "Plan:\n"
                      (mapconcat (lambda (e)
                                   (format "- [%s] %s\n"
                                           (pcase (plist-get e :status)
                                             ("completed" "x") ("in_progress" "-") (_ " "))
                                           (replace-regexp-in-string "\n" " " (or (plist-get e :content) ""))))
                                 (plist-get u :entries) ""))))
    (if (and agent-lsp--plan (marker-buffer (car agent-lsp--plan)))
        (let ((inhibit-read-only t))
          (delete-region (car agent-lsp--plan) (cdr agent-lsp--plan))
          (set-marker (cdr agent-lsp--plan) (cdr (agent-lsp--insert-at (car agent-lsp--plan) text))))
      (agent-lsp--start-block)
      (let ((region (agent-lsp--insert text)))
        (setq agent-lsp--plan (cons (copy-marker (car region)) (copy-marker (cdr region))))))))

(defun agent-lsp--thousands (n)
  "N with thousands separators."
  (let ((s (number-to-string (truncate (or n 0)))))
    (while (string-match "\\([0-9]\\)\\([0-9]\\{3\\}\\)\\(?:,\\|\\'\\)" s)
      (setq s (replace-match "\\1,\\2" t nil s)))
    s))

(defun agent-lsp-usage-line (u)
  "The one-line summary of the usage update U."
  (concat "Usage: "
          (agent-lsp--thousands (plist-get u :inputTokens)) " in · "
          (agent-lsp--thousands (plist-get u :outputTokens)) " out · "
          (agent-lsp--thousands (plist-get u :cachedTokens)) " cached"
          (when (numberp (plist-get u :cost))
            (format " · $%.4f this turn%s" (plist-get u :cost)
                    (if (numberp (plist-get u :sessionCost))
                        (format ", $%.4f this session" (plist-get u :sessionCost))
                      "")))))

(defun agent-lsp-compaction-line (u)
  "The chat's marker for the compaction update U: the older history was summarised."
  (format "── context compacted (checkpoint %s, %s): about %s → %s tokens; messages 1-%s archived ──"
          (plist-get u :n) (plist-get u :trigger)
          (agent-lsp--thousands (plist-get u :tokensBefore))
          (agent-lsp--thousands (plist-get u :tokensAfter))
          (plist-get u :through)))

(defun agent-lsp-render-user-message (text)
  "Write the user's prompt TEXT, as sent or replayed."
  (setq agent-lsp--stream nil agent-lsp--plan nil agent-lsp--turn-error nil)
  (agent-lsp--heading "You")
  (agent-lsp--insert (concat (string-trim-right text) "\n"))
  (setq agent-lsp--need-heading t))

(defun agent-lsp-render-error (text)
  "Write the error TEXT into the chat and show it in the echo area, once per turn.
The turn's end repeats the error its `error' update already showed, which
may have said more (that the prompt was not sent); that repeat is not shown."
  (unless (and agent-lsp--turn-error (string-prefix-p text agent-lsp--turn-error))
    (setq agent-lsp--turn-error text)
    (agent-lsp-chat-note (concat "Error: " text) 'agent-lsp-error)
    (message "agent-lsp: %s" text)))

(defun agent-lsp--render-update (u)
  "Write the single update U."
  (pcase (plist-get u :kind)
    ("text" (agent-lsp--render-stream 'text (or (plist-get u :text) "")))
    ("thought" (agent-lsp--render-stream 'thought (or (plist-get u :text) "")))
    ("tool_call" (agent-lsp--render-tool-call u))
    ("tool_call_update" (agent-lsp--render-tool-update u))
    ("plan" (agent-lsp--render-plan u))
    ("usage" (unless (and (eql (plist-get u :inputTokens) 0) (eql (plist-get u :outputTokens) 0))
               ;; A turn that failed before the model answered used nothing worth a line.
               (agent-lsp-chat-note (agent-lsp-usage-line u))))
    ("status" (agent-lsp-chat-note (or (plist-get u :text) "")))
    ("compaction" (agent-lsp-chat-note (agent-lsp-compaction-line u)))
    ("error" (agent-lsp-render-error (or (plist-get u :message) "unknown error")))
    ("user_message" (agent-lsp-render-user-message (or (plist-get u :text) "")))
    ("working_message" (agent-lsp-chat-note (concat "» " (or (plist-get u :text) "")) 'default))
    ("phase_report" (agent-lsp-chat-note (agent-lsp--phase-line u) 'agent-lsp-heading))
    ("completion" (agent-lsp-chat-note (agent-lsp--result-text u) 'agent-lsp-heading))
    ("task_spawned" (agent-lsp-chat-note (format "Started the task \"%s\" (session %s)"
                                                 (plist-get u :title) (plist-get u :sessionId))))))

(defun agent-lsp--phase-line (u)
  "Return the phase report U in one line."
  (concat "Phase done: " (or (plist-get u :completed) "")
          ". Verified: " (or (plist-get u :verification) "") "."
          (if (stringp (plist-get u :nextPhase)) (concat " Next: " (plist-get u :nextPhase) ".") "")))

(defun agent-lsp--result-text (u)
  "Return the result U as text, with the command to run to see it."
  (concat "Result: " (or (plist-get u :result) "")
          (if (stringp (plist-get u :command)) (concat "\nRun: " (plist-get u :command)) "")))

;;; The queue

(defun agent-lsp-render-enqueue (buffer update)
  "Queue UPDATE for BUFFER's transcript; it is written within a moment.
A subagent's words (tagged with its parent's tool call) are left out: its
answer comes back as that call's output."
  (with-current-buffer buffer
    (unless (and (plist-get update :parentToolCallId)
                 (member (plist-get update :kind) '("text" "thought" "usage")))
      (push update agent-lsp--queue))
    (unless agent-lsp--queue-timer
      (setq agent-lsp--queue-timer
            (run-at-time agent-lsp-chat-refresh-interval nil #'agent-lsp-render-flush buffer)))))

(defun agent-lsp-render-flush (buffer)
  "Write the queue of BUFFER now, joining consecutive pieces of streamed text."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (when (timerp agent-lsp--queue-timer) (cancel-timer agent-lsp--queue-timer))
      (setq agent-lsp--queue-timer nil)
      (let ((updates (nreverse agent-lsp--queue)))
        (setq agent-lsp--queue nil)
        (while updates
          (let* ((u (pop updates)) (kind (plist-get u :kind)))
            (if (member kind '("text" "thought"))
                (let ((pieces (list (or (plist-get u :text) ""))))
                  (while (and updates (equal (plist-get (car updates) :kind) kind))
                    (push (or (plist-get (pop updates) :text) "") pieces))
                  (agent-lsp--render-stream (intern kind) (apply #'concat (nreverse pieces))))
              (condition-case err
                  (agent-lsp--render-update u)
                (error (agent-lsp-chat-note (format "(could not show an update: %s)"
                                                    (error-message-string err))))))))))))

(provide 'agent-lsp-render)
;;; agent-lsp-render.el ends here
