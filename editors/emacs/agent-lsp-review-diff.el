;;; agent-lsp-review-diff.el --- Review a proposed change hunk by hunk in a diff buffer  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `*agent-lsp review*' shows the current file of a review against the proposal, each change
;; with a few lines of context: each hunk is taken or left with one key, RET finishes the
;; file.  Accept all, accept all and don't ask again, reject, and reject with a reason for
;; the model are one key each; quitting, C-g and killing the buffer reject.  The buffer is
;; shown, never selected by itself: keys typed elsewhere never reach it.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'diff-mode)
(require 'agent-lsp-review-state)

(defvar-local agent-lsp--this-review nil
  "The review shown in this buffer.")
(defvar-local agent-lsp--decisions nil
  "A vector: for each hunk of the file shown, `take', `leave' or nil.")
(defvar-local agent-lsp--decisions-of nil
  "The review and file index the decisions are for: (REVIEW . INDEX).")
(defvar-local agent-lsp--shown-more nil
  "Alist: hunk index -> how many of its lines to show, asked for with +.")

;;; The mode

(defvar agent-lsp-review-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map "a" #'agent-lsp-review-take)
    (define-key map "r" #'agent-lsp-review-leave)
    (define-key map "n" #'agent-lsp-review-next)
    (define-key map "p" #'agent-lsp-review-previous)
    (define-key map (kbd "TAB") #'agent-lsp-review-next)
    (define-key map (kbd "RET") #'agent-lsp-review-finish)
    (define-key map (kbd "C-c C-c") #'agent-lsp-review-finish)
    (define-key map "A" #'agent-lsp-review-accept-all)
    (define-key map "!" #'agent-lsp-review-accept-always)
    (define-key map "R" #'agent-lsp-review-reject)
    (define-key map "W" #'agent-lsp-review-reject-why)
    (define-key map "+" #'agent-lsp-review-show-more)
    (define-key map "o" #'agent-lsp-review-proposal)
    (define-key map "q" #'agent-lsp-review-reject)
    (define-key map (kbd "C-g") #'agent-lsp-review-reject)
    map)
  "Keymap of `agent-lsp-review-mode'.")

(define-derived-mode agent-lsp-review-mode special-mode "agent-lsp review"
  "Major mode of agent-lsp's change reviews.
Take the hunks you want with \\[agent-lsp-review-take], leave others
with \\[agent-lsp-review-leave], then \\[agent-lsp-review-finish] to go on: only the
hunks taken are written.  \\[agent-lsp-review-accept-all] accepts everything left,
\\[agent-lsp-review-accept-always] also stops asking for this kind of change,
\\[agent-lsp-review-reject] rejects the whole change, \\[agent-lsp-review-reject-why] rejects it
with words the agent reads.
\\{agent-lsp-review-mode-map}"
  (setq-local truncate-lines t)
  (add-hook 'kill-buffer-hook #'agent-lsp--review-killed nil t))

(defun agent-lsp--review-killed ()
  "The review buffer is being killed: an unanswered review is rejected."
  (let ((review agent-lsp--this-review))
    (when (and review (not (agent-lsp--review-finished review)))
      (setf (agent-lsp--review-close-view review) nil)
      (agent-lsp--review-reject review))))

;;; Drawing

(defun agent-lsp--review-keys-line (review)
  "The key help line of REVIEW."
  (concat "a take this change · r leave it out · n/p next/previous · RET finish the file"
          " · + show this change whole · o the whole proposal\n"
          "A accept all"
          (if (agent-lsp--review-offers-p review "allow_always") " · ! accept all, don't ask again" "")
          " · R or q reject all · W reject, telling the agent why"))

(defvar agent-lsp-review-max-lines 2000
  "Lines of changes the review shows in full; later hunks show their header.
In the review, \\<agent-lsp-review-mode-map>\\[agent-lsp-review-show-more] shows as many more lines of the change at
point, and \\[agent-lsp-review-proposal] the file's whole proposal.")

(defun agent-lsp--review-insert-line (type text)
  "Insert the line TEXT, of TYPE (?+, ?- or ?\\s), with its face."
  (let ((start (point)))
    (insert (char-to-string type) text)
    (unless (eq (char-before) ?\n) (insert "\n"))
    (put-text-property start (point) 'face (pcase type (?+ 'diff-added) (?- 'diff-removed) (_ 'diff-context)))))

(defun agent-lsp--review-insert-hunk (hunk i decision budget)
  "Insert HUNK, number I of the file, marked with DECISION.
Show at most BUDGET of its lines; return how many it showed."
  (let* ((start (point))
         (counts (agent-lsp-hunks-counts hunk))
         (total (+ (car counts) (cdr counts)))
         (lines (and (> budget 0) (agent-lsp-hunks-lines hunk budget))))
    (insert (propertize (format "@@ line %d @@ -%d +%d" (max 1 (plist-get hunk :old-start)) (car counts) (cdr counts))
                        'face 'diff-hunk-header)
            (pcase decision
              ('take (propertize "  [taken]" 'face 'success))
              ('leave (propertize "  [left out]" 'face 'shadow))
              (_ ""))
            "\n")
    (dolist (c (plist-get hunk :before)) (agent-lsp--review-insert-line ?\s c))
    (dolist (l lines) (agent-lsp--review-insert-line (car l) (cdr l)))
    (when (< (length lines) total)
      (insert (propertize (format "  … %d more line%s not shown: %s\n"
                                  (- total (length lines)) (if (= (- total (length lines)) 1) "" "s")
                                  (substitute-command-keys "\\<agent-lsp-review-mode-map>\\[agent-lsp-review-show-more] shows more of this change, \\[agent-lsp-review-proposal] the whole proposal"))
                          'face 'shadow)))
    (when lines (dolist (c (plist-get hunk :after)) (agent-lsp--review-insert-line ?\s c)))
    (put-text-property start (point) 'agent-lsp-hunk i)
    (length lines)))

(defun agent-lsp--review-render ()
  "Draw the current file of the review in this buffer."
  (let* ((review agent-lsp--this-review)
         (file (agent-lsp--review-file review))
         (hunks (plist-get file :hunks))
         (inhibit-read-only t)
         (budget agent-lsp-review-max-lines)
         (line (line-number-at-pos)))
    (erase-buffer)
    (insert (propertize (concat "agent-lsp wants to: " (agent-lsp--review-title review) "\n")
                        'face 'bold)
            (format "File %d/%d: %s   (%d of %d changes taken)\n"
                    (1+ (agent-lsp--review-index review)) (length (agent-lsp--review-files review))
                    (plist-get file :name)
                    (cl-count 'take agent-lsp--decisions) (length hunks))
            (propertize (concat (agent-lsp--review-keys-line review) "\n\n") 'face 'shadow))
    (cl-loop for hunk in hunks for i from 0
             do (if (assq i agent-lsp--shown-more)
                    ;; Asked for: its own number of lines, out of the budget of the rest.
                    (agent-lsp--review-insert-hunk hunk i (aref agent-lsp--decisions i) (cdr (assq i agent-lsp--shown-more)))
                  (setq budget (- budget (agent-lsp--review-insert-hunk hunk i (aref agent-lsp--decisions i) budget)))))
    (set-buffer-modified-p nil)
    (goto-char (point-min))
    (forward-line (1- line))))

(defun agent-lsp--review-hunk-at (&optional pos)
  "The index of the hunk at POS (default point), or nil."
  (get-text-property (or pos (point)) 'agent-lsp-hunk))

(defun agent-lsp--review-goto-hunk (index)
  "Move to the header of hunk INDEX; return non-nil when it exists."
  (let ((pos (text-property-any (point-min) (point-max) 'agent-lsp-hunk index)))
    (when pos (goto-char pos))))

(defun agent-lsp--review-free-buffer ()
  "Return the review buffer; a new one if another open review is in it."
  (let ((buf (get-buffer "*agent-lsp review*")))
    (if (and buf (let ((other (buffer-local-value 'agent-lsp--this-review buf)))
                   (and other (not (agent-lsp--review-finished other)))))
        (generate-new-buffer "*agent-lsp review*")
      (get-buffer-create "*agent-lsp review*"))))

(defun agent-lsp--review-diff-closer (buf)
  "A function that closes the review buffer BUF and its window."
  (lambda ()
    (when (buffer-live-p buf)
      ;; Closed by the package, not killed by the user: no answer from the kill hook.
      (with-current-buffer buf (setq agent-lsp--this-review nil agent-lsp--decisions-of nil))
      (let ((win (get-buffer-window buf t)))
        (when (window-live-p win) (quit-window nil win)))
      (when (buffer-live-p buf) (kill-buffer buf)))))

(defun agent-lsp--review-show-diff (review &optional select)
  "Show the current file of REVIEW in the diff buffer; SELECT its window.
Return the window."
  (let ((buf (or (and (buffer-live-p (agent-lsp--review-buffer review)) (agent-lsp--review-buffer review))
                 (agent-lsp--review-free-buffer))))
    (setf (agent-lsp--review-buffer review) buf
          (agent-lsp--review-close-view review) (agent-lsp--review-diff-closer buf))
    (with-current-buffer buf
      (unless (derived-mode-p 'agent-lsp-review-mode) (agent-lsp-review-mode))
      ;; Shown again (the block's `v'): the decisions so far stay.
      (unless (and (eq (car agent-lsp--decisions-of) review)
                   (eql (cdr agent-lsp--decisions-of) (agent-lsp--review-index review)))
        (setq agent-lsp--this-review review
              agent-lsp--decisions-of (cons review (agent-lsp--review-index review))
              agent-lsp--shown-more nil
              agent-lsp--decisions (make-vector (length (plist-get (agent-lsp--review-file review) :hunks))
                                                nil))
        (goto-char (point-min))
        (agent-lsp--review-render)
        (agent-lsp--review-goto-hunk 0)))
    (let ((win (display-buffer buf '((display-buffer-reuse-window display-buffer-pop-up-window)))))
      (when (and select win) (select-window win))
      win)))

;;; Commands

(defun agent-lsp--review-decide (decision)
  "Mark the hunk at point with DECISION and move to the next one."
  (let ((i (agent-lsp--review-hunk-at)))
    (if (not i)
        (user-error "No hunk here: move to one with n or p")
      (aset agent-lsp--decisions i decision)
      (agent-lsp--review-render)
      (or (agent-lsp--review-goto-hunk (1+ i)) (agent-lsp--review-goto-hunk i)))))

(defun agent-lsp-review-take ()
  "Take the hunk at point into the result."
  (interactive)
  (agent-lsp--review-decide 'take))

(defun agent-lsp-review-leave ()
  "Leave the hunk at point out of the result."
  (interactive)
  (agent-lsp--review-decide 'leave))

(defun agent-lsp-review-next ()
  "Move to the next hunk."
  (interactive)
  (let ((i (agent-lsp--review-hunk-at)))
    (unless (agent-lsp--review-goto-hunk (if i (1+ i) 0)) (message "agent-lsp: last hunk"))))

(defun agent-lsp-review-previous ()
  "Move to the previous hunk."
  (interactive)
  (let ((i (agent-lsp--review-hunk-at)))
    (unless (and i (> i 0) (agent-lsp--review-goto-hunk (1- i))) (message "agent-lsp: first hunk"))))

(defun agent-lsp-review-finish ()
  "Finish this file with the hunks taken so far, and go on to the next file."
  (interactive)
  (let* ((review agent-lsp--this-review)
         (file (agent-lsp--review-file review)))
    (agent-lsp--review-file-done
     review (agent-lsp-hunks-apply (plist-get file :old) (plist-get file :hunks)
                                   (mapcar (lambda (d) (eq d 'take)) agent-lsp--decisions)))))

(defun agent-lsp-review-accept-all ()
  "Accept this file and the next ones whole.
Files already finished keep the hunks taken."
  (interactive)
  (agent-lsp--review-accept-rest agent-lsp--this-review "allow_once"))

(defun agent-lsp-review-accept-always ()
  "Accept all, and don't ask again for this kind of change."
  (interactive)
  (agent-lsp--review-accept-always agent-lsp--this-review))

(defun agent-lsp-review-reject ()
  "Reject the whole change."
  (interactive)
  (agent-lsp--review-reject agent-lsp--this-review))

(defun agent-lsp-review-show-more ()
  "Show `agent-lsp-review-max-lines' more lines of the change at point.
A step at a time: a change of megabytes is shown on demand without a freeze."
  (interactive)
  (let* ((i (agent-lsp--review-hunk-at))
         (shown (and i (save-excursion
                         (let ((n 0) (pos (agent-lsp--review-goto-hunk i)))
                           (while (and pos (eql (get-text-property (point) 'agent-lsp-hunk) i) (not (eobp)))
                             (when (memq (char-after) '(?+ ?-)) (setq n (1+ n)))
                             (forward-line 1))
                           n)))))
    (if (not i)
        (user-error "No hunk here: move to one with n or p")
      (setf (alist-get i agent-lsp--shown-more) (+ shown agent-lsp-review-max-lines))
      (agent-lsp--review-render)
      (agent-lsp--review-goto-hunk i))))

(defun agent-lsp-review-proposal ()
  "Show the whole proposal for the file under review, in a buffer of its own."
  (interactive)
  (let* ((file (agent-lsp--review-file agent-lsp--this-review))
         (buf (get-buffer-create (format "*agent-lsp proposal: %s*" (plist-get file :name)))))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (plist-get file :new))
        (goto-char (point-min)))
      (view-mode 1))
    (pop-to-buffer buf)))

(defun agent-lsp-review-reject-why ()
  "Reject the whole change, with words for the agent."
  (interactive)
  (agent-lsp--review-reject-with-reason agent-lsp--this-review))

(provide 'agent-lsp-review-diff)
;;; agent-lsp-review-diff.el ends here
