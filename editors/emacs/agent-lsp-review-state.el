;;; agent-lsp-review-state.el --- One review of a proposed change, and its answer  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; A permission request that changes files is reviewed one file after the other.  This file
;; holds a review's state and turns what the user took into the answer: `accepted' names
;; exactly the text each file ends up with, so the server writes what was taken and nothing
;; else.  The views that show a file (the diff buffer of agent-lsp-review-diff.el, ediff in
;; agent-lsp-review-ediff.el) call in here; agent-lsp-review.el opens them.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-connection)
(require 'agent-lsp-hunks)
(require 'agent-lsp-work)

(declare-function agent-lsp--review-show "agent-lsp-review" (review))
(declare-function agent-lsp-waiting-done "agent-lsp-waiting" (block record &optional face))
(declare-function agent-lsp-read-reason "agent-lsp-waiting" ())

(cl-defstruct (agent-lsp--review (:constructor agent-lsp--make-review))
  "One open review: a permission request that proposes file changes.
FILES are plists (:uri :name :old :new :hunks); RESULTS the text each
file finished so far gets; CLOSE-VIEW closes whatever shows it; BLOCK
is its block in the chat; STYLE the view the user reviews it in.  WORK
reads the files' hunks; PREPARED is non-nil once it is done, FAILED the
error message when it could not be done."
  conn params reply title files (index 0) results buffer finished action close-view block style
  work prepared failed)

(defvar agent-lsp--reviews nil
  "The reviews waiting for an answer.")

;;; Files

(defun agent-lsp--review-collect-files (conn params)
  "The files of the permission request PARAMS on CONN, their hunks not read yet.
Each is a plist (:uri :name :old :new :hunks)."
  (let ((root (agent-lsp--root conn)))
    (mapcar (lambda (f)
              (let ((uri (plist-get f :uri)))
                (list :uri uri :name (file-relative-name (agent-lsp--uri-to-path uri) root)
                      :old (or (plist-get f :oldText) "") :new (or (plist-get f :newText) "")
                      :hunks nil)))
            (append (plist-get params :files) nil))))

(defun agent-lsp--review-prepare-step (review)
  "A step to read the hunks of REVIEW's files, a few lines at a time.
It returns non-nil once every file has its hunks."
  (let ((files (agent-lsp--review-files review))
        (diff (or (plist-get (agent-lsp--review-params review) :diff) ""))
        (builder nil))
    (lambda ()
      (when (and (null builder) files)
        (let ((f (car files)))
          (setq builder (agent-lsp-hunks-builder diff (plist-get f :name) (plist-get f :old) (plist-get f :new)))))
      (when (and builder (agent-lsp-hunks-step builder))
        (plist-put (car files) :hunks (agent-lsp-hunks-result builder))
        (setq files (cdr files) builder nil))
      (null files))))

(defun agent-lsp--review-prepare (review ready failed)
  "Read the hunks of REVIEW's files (in slices when large); then call READY.
When that fails, call FAILED with the error message: the review can
still be accepted or rejected whole."
  (setf (agent-lsp--review-work review)
        (agent-lsp-work-start (agent-lsp--review-prepare-step review)
                              (lambda (_) (setf (agent-lsp--review-prepared review) t) (funcall ready))
                              (lambda (why) (setf (agent-lsp--review-failed review) why) (funcall failed why)))))

(defun agent-lsp--review-failure (review)
  "What to tell the user whose REVIEW could not be read, or nil."
  (let ((why (agent-lsp--review-failed review)))
    (and why (format "the changes could not be read for review (%s): A accepts them whole, R rejects them" why))))

(defun agent-lsp--review-file (review)
  "The file of REVIEW being reviewed."
  (nth (agent-lsp--review-index review) (agent-lsp--review-files review)))

(defun agent-lsp--review-offers-p (review option)
  "Non-nil when the server offered OPTION for REVIEW."
  (let ((options (append (plist-get (agent-lsp--review-params review) :options) nil)))
    (or (null options) (cl-some (lambda (o) (equal (plist-get o :optionId) option)) options))))

;;; Answering

(defun agent-lsp--review-record (review result)
  "The chat's line for REVIEW answered with RESULT."
  (concat (pcase (plist-get result :optionId)
            ("reject" "✗ Rejected")
            ("allow_always" "✓ Accepted, not asked again")
            (_ (if (plist-get result :accepted) "✓ Accepted in part" "✓ Accepted")))
          ": " (agent-lsp--review-title review)
          (let ((reason (plist-get result :reason)))
            (if reason (format " — you said: %S" reason) ""))))

(defun agent-lsp--review-answer (review result)
  "Answer REVIEW with RESULT, once, and close it."
  (unless (agent-lsp--review-finished review)
    (agent-lsp--review-close review)
    (when (agent-lsp--review-block review)
      (agent-lsp-waiting-done (agent-lsp--review-block review) (agent-lsp--review-record review result)))
    (funcall (agent-lsp--review-reply review) result)))

(defun agent-lsp--review-close (review)
  "Close REVIEW's view (buffers and windows); it waits no more."
  (setf (agent-lsp--review-finished review) t)
  (setq agent-lsp--reviews (delq review agent-lsp--reviews))
  (agent-lsp-work-cancel (agent-lsp--review-work review))
  (let ((close (agent-lsp--review-close-view review)))
    (setf (agent-lsp--review-close-view review) nil)
    (when close (funcall close))))

(defun agent-lsp--review-accepted (review results)
  "The answer's `accepted' for REVIEW whose files get RESULTS."
  (vconcat (cl-mapcar (lambda (f r) (list :uri (plist-get f :uri) :text r))
                      (agent-lsp--review-files review) results)))

(defun agent-lsp--review-result (review)
  "The answer to REVIEW once every file has its final text."
  (let* ((files (agent-lsp--review-files review))
         (results (agent-lsp--review-results review))
         (all-new (cl-every (lambda (f r) (equal r (plist-get f :new))) files results))
         (all-old (cl-every (lambda (f r) (equal r (plist-get f :old))) files results)))
    (cond (all-new (list :optionId "allow_once"))
          (all-old (list :optionId "reject"))
          (t (list :optionId "allow_once" :accepted (agent-lsp--review-accepted review results))))))

(defun agent-lsp--review-file-done (review text)
  "Record TEXT as the current file's result in REVIEW; go on or answer."
  (setf (agent-lsp--review-results review)
        (append (agent-lsp--review-results review) (list text)))
  (if (< (1+ (agent-lsp--review-index review)) (length (agent-lsp--review-files review)))
      (progn (cl-incf (agent-lsp--review-index review))
             (agent-lsp--review-show review))
    (agent-lsp--review-answer review (agent-lsp--review-result review))))

(defun agent-lsp--review-accept-rest (review option)
  "Take this file and the ones after it whole in REVIEW, answering OPTION."
  (let* ((files (agent-lsp--review-files review))
         (results (append (agent-lsp--review-results review)
                          (mapcar (lambda (f) (plist-get f :new))
                                  (nthcdr (length (agent-lsp--review-results review)) files))))
         (whole (cl-every (lambda (f r) (equal r (plist-get f :new))) files results)))
    (agent-lsp--review-answer
     review (if whole (list :optionId option)
              (list :optionId option :accepted (agent-lsp--review-accepted review results))))))

(defun agent-lsp--review-accept-always (review)
  "Accept the rest of REVIEW and stop asking, when the server can remember it."
  (if (agent-lsp--review-offers-p review "allow_always")
      (agent-lsp--review-accept-rest review "allow_always")
    (message "agent-lsp: this change cannot be remembered; A accepts it this time")))

(defun agent-lsp--review-reject (review &optional reason)
  "Reject the whole change of REVIEW; pass REASON, when given, to the model."
  (agent-lsp--review-answer review (append (list :optionId "reject") (and reason (list :reason reason)))))

(defun agent-lsp--review-reject-with-reason (review)
  "Reject REVIEW with words read from the minibuffer (a quit there: still open)."
  (agent-lsp--review-reject review (agent-lsp-read-reason)))

(provide 'agent-lsp-review-state)
;;; agent-lsp-review-state.el ends here
