;;; agent-lsp-review.el --- Review a proposed change: the block in the chat, and its views  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; A permission request that changes files is asked in the chat like any approval (a block
;; that only keys on it answer), naming the files and their changes: review them in the diff
;; buffer (`v') or in ediff (`e'), accept all (`A', `!' also stops asking), reject (`R'), or
;; reject with words the agent reads (`W').  With `agent-lsp-review-style' `diff', the diff
;; buffer is also shown at once, without taking the focus.  Cancelling the turn closes the
;; review and answers it.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)
(require 'agent-lsp-render)
(require 'agent-lsp-chat)
(require 'agent-lsp-waiting)
(require 'agent-lsp-prompts)
(require 'agent-lsp-review-state)
(require 'agent-lsp-review-diff)
(require 'agent-lsp-review-ediff)

(defvar agent-lsp-review-style)

;;; Views

(defun agent-lsp--review-show (review &optional style)
  "Show REVIEW's current file in STYLE (`diff' or `ediff'), selected.
STYLE defaults to the one the user reviews it in, else `agent-lsp-review-style'."
  (cond ((agent-lsp--review-failed review) (message "agent-lsp: %s" (agent-lsp--review-failure review)))
        ((not (agent-lsp--review-prepared review))
         (message "agent-lsp: still reading the change; A accepts it and R rejects it meanwhile"))
        (t (agent-lsp--review-show-ready review style))))

(defun agent-lsp--review-show-ready (review style)
  "Show REVIEW, whose hunks are read, in STYLE (see `agent-lsp--review-show')."
  (let ((style (or style (agent-lsp--review-style review) agent-lsp-review-style)))
    (unless (eq style (agent-lsp--review-style review))
      (let ((close (agent-lsp--review-close-view review)))
        (setf (agent-lsp--review-close-view review) nil)
        (when close (funcall close))))
    (setf (agent-lsp--review-style review) style)
    (if (eq style 'ediff)
        (agent-lsp--review-ediff review)
      (agent-lsp--review-show-diff review t))))

(defun agent-lsp--review-note (review text)
  "Write TEXT about REVIEW in its chat."
  (let* ((block (agent-lsp--review-block review))
         (chat (and block (agent-lsp--waiting-chat block))))
    (when (buffer-live-p chat)
      (with-current-buffer chat (agent-lsp-chat-note text 'agent-lsp-error)))))

;;; The block in the chat

(defun agent-lsp--review-file-line (file)
  "The line of FILE in its review's block: its hunks and lines, once they are read."
  (let ((hunks (plist-get file :hunks)))
    (if (null hunks)
        (format "  %s (reading the change…)" (plist-get file :name))
      (let ((removed 0) (added 0) (n (length hunks)))
        (dolist (hunk hunks)
          (let ((counts (agent-lsp-hunks-counts hunk)))
            (setq removed (+ removed (car counts)) added (+ added (cdr counts)))))
        (format "  %s: %d change%s (-%d +%d lines)" (plist-get file :name) n (if (= n 1) "" "s") removed added)))))

(defun agent-lsp--review-lines (review)
  "The lines of REVIEW's block: each file, and how many hunks it has."
  (mapcar #'agent-lsp--review-file-line (agent-lsp--review-files review)))

(defun agent-lsp--review-when-ready (review)
  "The hunks of REVIEW are read: say so in its block; show (not select) the diff."
  (unless (agent-lsp--review-finished review)
    (agent-lsp-waiting-set-lines (agent-lsp--review-block review) (agent-lsp--review-lines review))
    (unless (eq agent-lsp-review-style 'ediff)
      (setf (agent-lsp--review-style review) 'diff)
      (agent-lsp--review-show-diff review))))

(defun agent-lsp--review-when-failed (review)
  "The hunks of REVIEW could not be read: say so in the chat and in its block.
The review still waits for an answer: a failure is never a No."
  (unless (agent-lsp--review-finished review)
    (let ((why (agent-lsp--review-failure review)))
      (message "agent-lsp: %s" why)
      (agent-lsp--review-note review why)
      (agent-lsp-waiting-set-lines (agent-lsp--review-block review)
                                   (mapcar (lambda (f) (format "  %s (not readable for review)" (plist-get f :name)))
                                           (agent-lsp--review-files review))))))

(defun agent-lsp--review-choices (review)
  "The answers of REVIEW's block: (KEY LABEL FUNCTION) each."
  (let ((act (lambda (fn) (lambda (_block) (funcall fn review)))))
    (append
     (list (list "v" "Review the changes" (funcall act (lambda (r) (agent-lsp--review-show r 'diff))))
           (list "e" "Review in ediff" (funcall act (lambda (r) (agent-lsp--review-show r 'ediff))))
           (list "A" "Accept all" (funcall act (lambda (r) (agent-lsp--review-accept-rest r "allow_once")))))
     (and (agent-lsp--review-offers-p review "allow_always")
          (list (list "!" "Accept all, don't ask again" (funcall act #'agent-lsp--review-accept-always))))
     (list (list "R" "Reject" (funcall act #'agent-lsp--review-reject))
           (list "W" "Reject, telling the agent why" (funcall act #'agent-lsp--review-reject-with-reason))))))

;;; Entry points

(defun agent-lsp-review-start (conn params reply pending)
  "Open the review of the permission request PARAMS from CONN.
REPLY sends the answer; PENDING is the request, whose withdrawal
closes the review."
  (let ((review (agent-lsp--make-review :conn conn :params params :reply reply
                                        :title (agent-lsp-permission-title params)
                                        :files (agent-lsp--review-collect-files conn params))))
    (push review agent-lsp--reviews)
    (setf (agent-lsp--review-block review)
          (agent-lsp-waiting-add (agent-lsp--request-chat conn params)
                                 :what "approval"
                                 :title (concat "agent-lsp wants to: " (agent-lsp--review-title review))
                                 :lines (agent-lsp--review-lines review)
                                 :choices (agent-lsp--review-choices review)
                                 :decline (lambda (_block) (agent-lsp--review-reject review))
                                 :decline-label "Reject"))
    (agent-lsp--on-cleanup pending (lambda ()
                                     (agent-lsp--review-close review)
                                     (agent-lsp-waiting-done (agent-lsp--review-block review)
                                                             (concat "(no longer asked: " (agent-lsp--review-title review) ")"))))
    ;; At once for a small change; in slices, the block saying so, for a large one.
    (agent-lsp--review-prepare review (lambda () (agent-lsp--review-when-ready review))
                               (lambda (_why) (agent-lsp--review-when-failed review)))
    review))

(defun agent-lsp-review-close-session (conn session-id)
  "Reject and close every open review of SESSION-ID on CONN (its turn ended)."
  (dolist (review (copy-sequence agent-lsp--reviews))
    (when (and (eq (agent-lsp--review-conn review) conn)
               (equal (plist-get (agent-lsp--review-params review) :sessionId) session-id))
      (agent-lsp--review-reject review))))

(provide 'agent-lsp-review)
;;; agent-lsp-review.el ends here
