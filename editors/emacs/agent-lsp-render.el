;;; agent-lsp-render.el --- Write the agent's updates into a chat transcript  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The transcript is the read-only text above the chat's prompt line (its primitives are in
;; agent-lsp-transcript.el).  `agent/update' notifications are queued and written in batches every `agent-lsp-chat-refresh-interval'
;; seconds, consecutive pieces of the answer joined into one insertion: a long answer
;; streams without a redisplay per piece.  Thinking and each tool call's input and output
;; are folded under a one-line header that TAB (or RET, or a click) opens.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'seq)
(require 'agent-lsp-transcript)

(defvar agent-lsp-chat-refresh-interval 0.05
  "Seconds between two writes of streamed updates into a chat.")

(defconst agent-lsp--detail-max-lines 200
  "Lines of a tool call's input or output shown at most.")

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
(defvar-local agent-lsp--plan-proposed nil
  "Non-nil when the plan shown last is a proposal (make_plan), not a checklist.")

;;; Details of a tool call

(defun agent-lsp--detail-lines (label value)
  "Indented lines showing VALUE under LABEL."
  (let* ((text (cond ((stringp value) value)
                     ((null value) "")
                     (t (condition-case nil
                            (json-serialize value :null-object nil :false-object :json-false)
                          (error (format "%S" value))))))
         ;; Only the lines shown are cut out: a tool's input can be a file of megabytes.
         (end (agent-lsp--end-before-newlines text))
         (shown-end (min end (agent-lsp--line-end-after text agent-lsp--detail-max-lines)))
         (lines (split-string (substring text 0 shown-end) "\n")))
    (when (and (cdr lines) (string-empty-p (car (last lines)))) (setq lines (butlast lines)))
    (if (and (<= (length lines) 1) (= shown-end end))
        (format "    %s: %s\n" label (or (car lines) ""))
      (concat (format "    %s:\n" label)
              (mapconcat (lambda (l) (concat "      " l "\n")) lines "")
              (if (< shown-end end)
                  (format "      ... (%d more lines)\n" (agent-lsp--count-lines-between text shown-end end))
                "")))))

(defun agent-lsp--end-before-newlines (text)
  "The position in TEXT before the newlines it ends with."
  (let ((end (length text)))
    (while (and (> end 0) (eq (aref text (1- end)) ?\n)) (setq end (1- end)))
    end))

(defun agent-lsp--line-end-after (text n)
  "The position in TEXT after its first N lines (or its end)."
  (let ((pos 0))
    (while (and (> n 0) (< pos (length text)))
      (let ((nl (string-search "\n" text pos)))
        (setq pos (if nl (1+ nl) (length text)) n (1- n))))
    pos))

(defun agent-lsp--count-lines-between (text pos end)
  "The number of lines of TEXT from POS to END (a last one without newline too)."
  (let ((n 0))
    (while (< pos end)
      (let ((nl (string-search "\n" text pos)))
        (setq pos (if (and nl (< nl end)) (1+ nl) end) n (1+ n))))
    n))

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
  (setq agent-lsp--stream nil
        ;; make_plan's proposal has no ids; the session's checklist has them.
        agent-lsp--plan-proposed (let ((first (seq-first (plist-get u :entries))))
                                   (and first (not (plist-get first :id)))))
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
