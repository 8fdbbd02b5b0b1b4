;;; agent-lsp-review.el --- Review a proposed change hunk by hunk  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; A permission request that changes files opens a review of the current text against the
;; proposal, one file after the other: in a diff buffer where each hunk is taken or left
;; with one key, or in ediff (`agent-lsp-review-style').  The answer names exactly the text
;; each file ends up with (`accepted'), so the server writes what was taken and nothing
;; else.  Accept all, accept all and don't ask again, and reject are one key each; quitting,
;; C-g and killing the review buffer reject.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'diff-mode)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)
(require 'agent-lsp-hunks)

(defvar agent-lsp-review-style)

(declare-function ediff-buffers "ediff" (buffer-a buffer-b &optional startup-hooks job-name))
(declare-function ediff-really-quit "ediff-util" (reverse-default-keep-variants))
(defvar ediff-control-buffer)
(defvar ediff-mode-map)
(defvar ediff-quit-hook)

(cl-defstruct (agent-lsp--review (:constructor agent-lsp--make-review))
  "One open review: a permission request that proposes file changes."
  conn params reply files (index 0) results buffer finished action)

(defvar agent-lsp--reviews nil
  "The reviews waiting for an answer.")

(defvar-local agent-lsp--this-review nil
  "The review shown in this buffer.")
(defvar-local agent-lsp--decisions nil
  "A vector: for each hunk of the file shown, `take', `leave' or nil.")

;;; Files

(defun agent-lsp--review-collect-files (conn params)
  "The files of the permission request PARAMS on CONN, each with its hunks.
Each is a plist (:uri :name :old :new :hunks)."
  (let ((sections (agent-lsp-hunks-parse (plist-get params :diff)))
        (root (agent-lsp--root conn)))
    (mapcar (lambda (f)
              (let* ((uri (plist-get f :uri))
                     (name (file-relative-name (agent-lsp--uri-to-path uri) root))
                     (old (or (plist-get f :oldText) ""))
                     (new (or (plist-get f :newText) "")))
                (list :uri uri :name name :old old :new new
                      :hunks (agent-lsp-hunks-for old new (cdr (assoc name sections))))))
            (append (plist-get params :files) nil))))

(defun agent-lsp--review-file (review)
  "The file of REVIEW being reviewed."
  (nth (agent-lsp--review-index review) (agent-lsp--review-files review)))

;;; Answering

(defun agent-lsp--review-answer (review result)
  "Answer REVIEW with RESULT, once, and close it."
  (unless (agent-lsp--review-finished review)
    (setf (agent-lsp--review-finished review) t)
    (setq agent-lsp--reviews (delq review agent-lsp--reviews))
    (agent-lsp--review-close review)
    (funcall (agent-lsp--review-reply review) result)))

(defun agent-lsp--review-close (review)
  "Close REVIEW's buffers and windows."
  (setf (agent-lsp--review-finished review) t)
  (setq agent-lsp--reviews (delq review agent-lsp--reviews))
  (let ((buf (agent-lsp--review-buffer review)))
    (when (and (buffer-live-p buf) (local-variable-p 'ediff-control-buffer buf))
      ;; An ediff session: end it (its quit hook sees the review is finished).
      (with-current-buffer buf (ignore-errors (ediff-really-quit nil)))
      (setq buf nil))
    (when (buffer-live-p buf)
      (let ((win (get-buffer-window buf t)))
        (when (window-live-p win) (quit-window nil win)))
      (when (buffer-live-p buf) (kill-buffer buf)))))

(defun agent-lsp--review-result (review)
  "The answer to REVIEW once every file has its final text."
  (let* ((files (agent-lsp--review-files review))
         (results (agent-lsp--review-results review))
         (all-new (cl-every (lambda (f r) (equal r (plist-get f :new))) files results))
         (all-old (cl-every (lambda (f r) (equal r (plist-get f :old))) files results)))
    (cond (all-new (list :optionId "allow_once"))
          (all-old (list :optionId "reject"))
          (t (list :optionId "allow_once"
                   :accepted (vconcat (cl-mapcar (lambda (f r) (list :uri (plist-get f :uri) :text r))
                                                 files results)))))))

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
              (list :optionId option
                    :accepted (vconcat (cl-mapcar (lambda (f r) (list :uri (plist-get f :uri) :text r))
                                                  files results)))))))

(defun agent-lsp--review-offers-p (review option)
  "Non-nil when the server offered OPTION for REVIEW."
  (let ((options (append (plist-get (agent-lsp--review-params review) :options) nil)))
    (or (null options) (cl-some (lambda (o) (equal (plist-get o :optionId) option)) options))))

;;; The diff buffer

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
\\[agent-lsp-review-reject] rejects the whole change.
\\{agent-lsp-review-mode-map}"
  (setq-local truncate-lines t)
  (add-hook 'kill-buffer-hook #'agent-lsp--review-killed nil t))

(defun agent-lsp--review-killed ()
  "The review buffer is being killed: an unanswered review is rejected."
  (let ((review agent-lsp--this-review))
    (when (and review (not (agent-lsp--review-finished review)))
      (setf (agent-lsp--review-buffer review) nil)
      (agent-lsp--review-answer review (list :optionId "reject")))))

(defun agent-lsp--review-keys-line (review)
  "The key help line of REVIEW."
  (concat "a take this change · r leave it out · n/p next/previous · RET finish the file\n"
          "A accept all"
          (if (agent-lsp--review-offers-p review "allow_always") " · ! accept all, don't ask again" "")
          " · R or q reject all"))

(defun agent-lsp--review-render ()
  "Draw the current file of the review in this buffer."
  (let* ((review agent-lsp--this-review)
         (file (agent-lsp--review-file review))
         (hunks (plist-get file :hunks))
         (inhibit-read-only t)
         (line (line-number-at-pos)))
    (erase-buffer)
    (insert (propertize (concat "agent-lsp wants to: "
                                (or (plist-get (agent-lsp--review-params review) :summary) "change files")
                                "\n")
                        'face 'bold)
            (format "File %d/%d: %s   (%d of %d changes taken)\n"
                    (1+ (agent-lsp--review-index review)) (length (agent-lsp--review-files review))
                    (plist-get file :name)
                    (cl-count 'take agent-lsp--decisions) (length hunks))
            (propertize (concat (agent-lsp--review-keys-line review) "\n\n") 'face 'shadow))
    (cl-loop for hunk in hunks for i from 0 do
             (let ((start (point)) (decision (aref agent-lsp--decisions i)))
               (insert (propertize (format "@@ line %d @@" (max 1 (plist-get hunk :old-start)))
                                   'face 'diff-hunk-header)
                       (pcase decision
                         ('take (propertize "  [taken]" 'face 'success))
                         ('leave (propertize "  [left out]" 'face 'shadow))
                         (_ ""))
                       "\n")
               (dolist (l (append (mapcar (lambda (c) (cons ?\s c)) (plist-get hunk :before))
                                  (plist-get hunk :lines)
                                  (mapcar (lambda (c) (cons ?\s c)) (plist-get hunk :after))))
                 (insert (propertize (concat (string (car l)) (string-remove-suffix "\n" (cdr l)) "\n")
                                     'face (pcase (car l)
                                             (?+ 'diff-added) (?- 'diff-removed) (_ 'diff-context)))))
               (put-text-property start (point) 'agent-lsp-hunk i)))
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

(defun agent-lsp--review-show (review)
  "Show REVIEW's current file in the style the user chose."
  (if (eq agent-lsp-review-style 'ediff)
      (agent-lsp--review-ediff review)
    (agent-lsp--review-show-diff review)))

(defun agent-lsp--review-free-buffer ()
  "Return the review buffer; a new one if another open review is in it."
  (let ((buf (get-buffer "*agent-lsp review*")))
    (if (and buf (let ((other (buffer-local-value 'agent-lsp--this-review buf)))
                   (and other (not (agent-lsp--review-finished other)))))
        (generate-new-buffer "*agent-lsp review*")
      (get-buffer-create "*agent-lsp review*"))))

(defun agent-lsp--review-show-diff (review)
  "Show the current file of REVIEW in the diff buffer."
  (let ((buf (or (and (buffer-live-p (agent-lsp--review-buffer review)) (agent-lsp--review-buffer review))
                 (agent-lsp--review-free-buffer))))
    (setf (agent-lsp--review-buffer review) buf)
    (with-current-buffer buf
      (unless (derived-mode-p 'agent-lsp-review-mode) (agent-lsp-review-mode))
      (setq agent-lsp--this-review review
            agent-lsp--decisions (make-vector (length (plist-get (agent-lsp--review-file review) :hunks))
                                              nil))
      (goto-char (point-min))
      (agent-lsp--review-render)
      (agent-lsp--review-goto-hunk 0))
    (select-window (display-buffer buf '((display-buffer-reuse-window display-buffer-pop-up-window))))
    (message "agent-lsp: review the change: a takes a hunk, RET finishes, A accepts all, R rejects")))

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
  (if (agent-lsp--review-offers-p agent-lsp--this-review "allow_always")
      (agent-lsp--review-accept-rest agent-lsp--this-review "allow_always")
    (message "agent-lsp: this change cannot be remembered; A accepts it this time")))

(defun agent-lsp-review-reject ()
  "Reject the whole change."
  (interactive)
  (agent-lsp--review-answer agent-lsp--this-review (list :optionId "reject")))

;;; Ediff

(defun agent-lsp--review-ediff (review)
  "Review the current file of REVIEW in ediff: buffer A becomes the result."
  (require 'ediff)
  (let* ((file (agent-lsp--review-file review))
         (name (plist-get file :name))
         (a (generate-new-buffer (format "*agent-lsp current: %s*" name)))
         (b (generate-new-buffer (format "*agent-lsp proposal: %s*" name))))
    (with-current-buffer a (insert (plist-get file :old)))
    (with-current-buffer b (insert (plist-get file :new)) (setq buffer-read-only t))
    (setf (agent-lsp--review-action review) nil)
    (ediff-buffers a b (list (lambda () (agent-lsp--review-ediff-setup review a b))))
    (message "agent-lsp: b copies a change into the result; q finishes this file; C-c C-a accept all%s; C-c C-k reject"
             (if (agent-lsp--review-offers-p review "allow_always") "; C-c C-s accept all, don't ask again" ""))))

(defun agent-lsp--review-ediff-setup (review a b)
  "Set up the ediff control buffer of REVIEW comparing A and B."
  (let ((map (copy-keymap ediff-mode-map)))
    (dolist (binding `(("C-c C-c" . finish) ("C-c C-a" . accept) ("C-c C-s" . always)
                       ("C-c C-k" . reject) ("C-g" . reject)))
      (define-key map (kbd (car binding))
                  (let ((action (cdr binding)))
                    (lambda () (interactive)
                      (setf (agent-lsp--review-action review) action)
                      (ediff-really-quit nil)))))
    (use-local-map map)
    (setq-local ediff-mode-map map))
  (setf (agent-lsp--review-buffer review) (current-buffer))
  (add-hook 'ediff-quit-hook
            (lambda () (agent-lsp--review-ediff-done review a b))
            nil t))

(defun agent-lsp--review-ediff-done (review a b)
  "The ediff session of REVIEW (buffers A and B) ended: act on how."
  (let ((text (with-current-buffer a (buffer-substring-no-properties (point-min) (point-max))))
        (action (agent-lsp--review-action review)))
    (setf (agent-lsp--review-buffer review) nil)
    (run-at-time 0 nil
                 (lambda ()
                   (dolist (buf (list a b)) (when (buffer-live-p buf) (kill-buffer buf)))
                   (unless (agent-lsp--review-finished review)
                     (pcase action
                       ('accept (agent-lsp--review-accept-rest review "allow_once"))
                       ('always (agent-lsp--review-accept-rest
                                 review (if (agent-lsp--review-offers-p review "allow_always")
                                            "allow_always" "allow_once")))
                       ('reject (agent-lsp--review-answer review (list :optionId "reject")))
                       (_ (agent-lsp--review-file-done review text))))))))

;;; Entry points

(defun agent-lsp-review-start (conn params reply pending)
  "Open the review of the permission request PARAMS from CONN.
REPLY sends the answer; PENDING is the request, whose withdrawal
closes the review."
  (let ((review (agent-lsp--make-review :conn conn :params params :reply reply
                                        :files (agent-lsp--review-collect-files conn params))))
    (push review agent-lsp--reviews)
    (agent-lsp--on-cleanup pending (lambda () (agent-lsp--review-close review)))
    (agent-lsp--review-show review)
    review))

(defun agent-lsp-review-close-session (conn session-id)
  "Reject and close every open review of SESSION-ID on CONN (its turn ended)."
  (dolist (review (copy-sequence agent-lsp--reviews))
    (when (and (eq (agent-lsp--review-conn review) conn)
               (equal (plist-get (agent-lsp--review-params review) :sessionId) session-id))
      (agent-lsp--review-answer review (list :optionId "reject")))))

(provide 'agent-lsp-review)
;;; agent-lsp-review.el ends here
