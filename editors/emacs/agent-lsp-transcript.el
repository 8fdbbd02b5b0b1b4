;;; agent-lsp-transcript.el --- The chat's transcript: read-only blocks and folded sections  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The transcript is the read-only text above the chat's prompt line.  Here are the
;; primitives everything written there goes through: insert read-only text at the
;; transcript's end (or at a place in it) as a block of its own, headings and notes, and
;; sections (a thought, a tool call's details) folded under a header line that TAB, RET or a
;; click opens.  agent-lsp-render.el writes the agent's updates with them.

;;; Code:

(require 'cl-lib)
(require 'button)

(defvar-local agent-lsp--transcript-end nil
  "Marker where the transcript ends and the prompt line starts.")
(defvar-local agent-lsp--stream nil
  "Kind of the block being streamed into: `text', `thought' or nil.")
(defvar-local agent-lsp--stream-fold nil
  "Invisibility symbol of the thought block being streamed.")
(defvar-local agent-lsp--need-heading nil
  "Non-nil until the agent's first output of the turn.")

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

(provide 'agent-lsp-transcript)
;;; agent-lsp-transcript.el ends here
