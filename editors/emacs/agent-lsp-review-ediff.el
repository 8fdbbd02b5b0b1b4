;;; agent-lsp-review-ediff.el --- Review a proposed change in ediff  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; With `agent-lsp-review-style' set to `ediff', or with `e' on the review's block in the
;; chat, each file of a review is compared in ediff: buffer A starts as the current text and
;; becomes the result, B is the proposal.  Ediff lays its windows out over the frame; from
;; the chat in a side window it would fail ("Cannot make side window the only window"), so it
;; starts from a main window, and the window layout it replaced (the chat included) comes
;; back when it ends.  Its buffers are killed afterwards.  When ediff cannot start, the user
;; is told why and the file is reviewed in the diff buffer instead: a review that failed to
;; open is never answered as if the user had declined.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-review-state)

(declare-function ediff-buffers "ediff" (buffer-a buffer-b &optional startup-hooks job-name))
(declare-function ediff-really-quit "ediff-util" (reverse-default-keep-variants))
(declare-function agent-lsp--review-show-diff "agent-lsp-review-diff" (review &optional select))
(declare-function agent-lsp--review-note "agent-lsp-review" (review text))
(declare-function agent-lsp-read-reason "agent-lsp-waiting" ())
(defvar ediff-control-buffer)
(defvar ediff-mode-map)
(defvar ediff-quit-hook)

;;; Windows and buffers

(defun agent-lsp--review-main-window ()
  "The selected window, or another of its frame when it is a side window."
  (if (window-parameter (selected-window) 'window-side)
      (or (cl-find-if-not (lambda (w) (window-parameter w 'window-side))
                          (window-list nil 'nomini))
          (selected-window))
    (selected-window)))

(defun agent-lsp--review-ediff-leftovers (before)
  "The ediff buffers made since BEFORE, a list of buffers, that ediff left behind."
  (cl-remove-if (lambda (buf) (or (memq buf before)
                                  (not (string-match-p "\\`\\*[Ee]diff" (buffer-name buf)))))
                (buffer-list)))

(defun agent-lsp--review-ediff-cleanup (buffers before layout)
  "Kill BUFFERS and ediff's buffers made since BEFORE; restore the window LAYOUT."
  (dolist (buf (append buffers (agent-lsp--review-ediff-leftovers before)))
    (when (buffer-live-p buf)
      (with-current-buffer buf (set-buffer-modified-p nil))
      (let ((kill-buffer-query-functions nil)) (kill-buffer buf))))
  (when (window-configuration-p layout)
    (ignore-errors (set-window-configuration layout))))

;;; The session

(defun agent-lsp--review-ediff (review)
  "Review the current file of REVIEW in ediff: buffer A becomes the result."
  (require 'ediff)
  (let* ((file (agent-lsp--review-file review))
         (name (plist-get file :name))
         (layout (current-window-configuration))
         (before (buffer-list))
         (a (generate-new-buffer (format "*agent-lsp current: %s*" name)))
         (b (generate-new-buffer (format "*agent-lsp proposal: %s*" name))))
    (with-current-buffer a (insert (plist-get file :old)))
    (with-current-buffer b (insert (plist-get file :new)) (setq buffer-read-only t))
    (setf (agent-lsp--review-action review) nil)
    (condition-case err
        (progn
          (select-window (agent-lsp--review-main-window))
          (ediff-buffers a b (list (lambda () (agent-lsp--review-ediff-setup review a b before layout))))
          (message "agent-lsp: b copies a change into the result; C-c C-c finishes this file; C-c C-a accept all%s; C-c C-k reject; C-c C-w reject, telling the agent why"
                   (if (agent-lsp--review-offers-p review "allow_always") "; C-c C-s accept all, don't ask again" "")))
      (error (agent-lsp--review-ediff-failed review (list a b) before layout err)))))

(defun agent-lsp--review-ediff-failed (review buffers before layout err)
  "Ediff could not start for REVIEW (ERR): clean up, review in the diff buffer.
BUFFERS, BEFORE and LAYOUT are what `agent-lsp--review-ediff-cleanup' takes."
  (agent-lsp--review-ediff-cleanup buffers before layout)
  (let ((why (format "ediff could not open (%s); the change is shown in the diff review instead"
                     (error-message-string err))))
    (message "agent-lsp: %s" why)
    (agent-lsp--review-note review why))
  (agent-lsp--review-show-diff review t))

(defun agent-lsp--review-ediff-setup (review a b before layout)
  "Set up the ediff control buffer of REVIEW comparing A and B.
BEFORE and LAYOUT are the buffers and windows to come back to."
  (let ((map (copy-keymap ediff-mode-map))
        (control (current-buffer)))
    (dolist (binding `(("C-c C-c" . finish) ("C-c C-a" . accept) ("C-c C-s" . always)
                       ("C-c C-k" . reject) ("C-c C-w" . reject-why) ("C-g" . reject)))
      (define-key map (kbd (car binding))
                  (let ((action (cdr binding)))
                    (lambda () (interactive)
                      (agent-lsp--review-ediff-act review action)))))
    (use-local-map map)
    (setq-local ediff-mode-map map)
    (setf (agent-lsp--review-buffer review) control
          (agent-lsp--review-close-view review)
          (lambda () (when (buffer-live-p control)
                       (with-current-buffer control (ignore-errors (ediff-really-quit nil))))))
    (add-hook 'ediff-quit-hook
              (lambda () (agent-lsp--review-ediff-done review a b before layout))
              nil t)))

(defun agent-lsp--review-ediff-act (review action)
  "End REVIEW's ediff session to do ACTION (reject-why: read the words first)."
  (let ((reason (and (eq action 'reject-why) (agent-lsp-read-reason))))
    (setf (agent-lsp--review-action review) (if reason (cons 'reject reason) action))
    (ediff-really-quit nil)))

(defun agent-lsp--review-ediff-done (review a b before layout)
  "The ediff session of REVIEW (buffers A and B) ended: clean up and act on how.
BEFORE and LAYOUT are the buffers and windows to come back to."
  (let ((text (with-current-buffer a (buffer-substring-no-properties (point-min) (point-max))))
        (action (agent-lsp--review-action review)))
    (setf (agent-lsp--review-buffer review) nil
          (agent-lsp--review-close-view review) nil)
    ;; After ediff's own clean-up, which runs after this hook.
    (run-at-time 0 nil
                 (lambda ()
                   (agent-lsp--review-ediff-cleanup (list a b) before layout)
                   (unless (agent-lsp--review-finished review)
                     (pcase action
                       ('accept (agent-lsp--review-accept-rest review "allow_once"))
                       ('always (agent-lsp--review-accept-rest
                                 review (if (agent-lsp--review-offers-p review "allow_always")
                                            "allow_always" "allow_once")))
                       ((or 'reject 'reject-why) (agent-lsp--review-reject review))
                       (`(reject . ,reason) (agent-lsp--review-reject review reason))
                       (_ (agent-lsp--review-file-done review text))))))))

(provide 'agent-lsp-review-ediff)
;;; agent-lsp-review-ediff.el ends here
