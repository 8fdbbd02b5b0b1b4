;;; agent-lsp-work.el --- Long work done in slices, between keys and timers  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Work that grows with the size of a change (decoding a message of megabytes, cutting a
;; rewrite into hunks) runs here in slices of `agent-lsp-work-slice' seconds, from timers, so
;; keys, redisplay and other timers get their turn in between: Emacs never freezes on a large
;; change.  Work that ends within its first slice ends at once, without a timer, so small
;; changes behave as if nothing were sliced.  While sliced work goes on, `gc-cons-threshold'
;; is raised to `agent-lsp-work-gc-threshold': the work makes megabytes of strings, and each
;; collection costs tens of milliseconds however little it frees, so a few collections
;; instead of dozens keep the pauses between keys short.  It is put back when the last work
;; ends, unless something else changed it meanwhile.

;;; Code:

(require 'cl-lib)

(defvar agent-lsp-work-slice 0.02
  "Seconds of work between two chances for keys, redisplay and timers.")

(defvar agent-lsp-work-gc-threshold (* 16 1024 1024)
  "The `gc-cons-threshold' at least while sliced work goes on.")

(defvar agent-lsp--work-running 0
  "How many pieces of work go on in slices.")

(defvar agent-lsp--work-gc nil
  "While work goes on: (THRESHOLD-BEFORE . THRESHOLD-SET).")

(defun agent-lsp--work-begin ()
  "Begin a piece of work in slices: collect garbage less often meanwhile."
  (when (= agent-lsp--work-running 0)
    (setq agent-lsp--work-gc (cons gc-cons-threshold (max gc-cons-threshold agent-lsp-work-gc-threshold)))
    (setq gc-cons-threshold (cdr agent-lsp--work-gc)))
  (cl-incf agent-lsp--work-running))

(defun agent-lsp--work-end ()
  "A piece of work in slices ended: the last one puts the threshold back."
  (when (> agent-lsp--work-running 0)
    (cl-decf agent-lsp--work-running)
    (when (and (= agent-lsp--work-running 0) agent-lsp--work-gc)
      (when (eql gc-cons-threshold (cdr agent-lsp--work-gc))
        (setq gc-cons-threshold (car agent-lsp--work-gc)))
      (setq agent-lsp--work-gc nil))))

(cl-defstruct (agent-lsp--work (:constructor agent-lsp--make-work (step done fail)))
  "A piece of long work: STEP does a small unit and returns non-nil when
finished; DONE is called with that value; FAIL with the error message
when STEP signals."
  step done fail timer cancelled)

(defun agent-lsp--work-slice (work)
  "Run WORK's step for one slice; return non-nil when WORK is over."
  (let ((deadline (+ (float-time) agent-lsp-work-slice)) (result nil))
    (condition-case err
        (progn
          (while (and (not (setq result (funcall (agent-lsp--work-step work))))
                      (< (float-time) deadline)))
          (when result (funcall (agent-lsp--work-done work) result))
          result)
      (error (funcall (agent-lsp--work-fail work) (error-message-string err))
             t))))

(defun agent-lsp--work-continue (work)
  "Run the next slice of WORK from a timer, and schedule the one after."
  (setf (agent-lsp--work-timer work) nil)
  (unless (agent-lsp--work-cancelled work)
    (if (agent-lsp--work-slice work)
        (agent-lsp--work-finish work)
      (setf (agent-lsp--work-timer work) (run-at-time 0 nil #'agent-lsp--work-continue work)))))

(defun agent-lsp--work-finish (work)
  "WORK, which went on in slices, is over."
  (unless (agent-lsp--work-cancelled work)
    (setf (agent-lsp--work-cancelled work) t)
    (agent-lsp--work-end)))

(defun agent-lsp-work-start (step done &optional fail)
  "Do STEP until it gives non-nil, then call DONE with that; return the work.
The first slice runs now; later ones from timers.  When STEP signals,
FAIL (by default `message') gets the error message."
  (let ((work (agent-lsp--make-work step done (or fail (lambda (why) (message "agent-lsp: %s" why))))))
    (if (agent-lsp--work-slice work)
        (setf (agent-lsp--work-cancelled work) t)
      (agent-lsp--work-begin)
      (setf (agent-lsp--work-timer work) (run-at-time 0 nil #'agent-lsp--work-continue work)))
    work))

(defun agent-lsp-work-cancel (work)
  "Stop WORK; its DONE is never called."
  (when (and work (not (agent-lsp--work-cancelled work)))
    (when (timerp (agent-lsp--work-timer work)) (cancel-timer (agent-lsp--work-timer work)))
    (agent-lsp--work-finish work)))

(provide 'agent-lsp-work)
;;; agent-lsp-work.el ends here
