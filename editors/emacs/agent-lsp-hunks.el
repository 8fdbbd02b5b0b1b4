;;; agent-lsp-hunks.el --- The hunks of a proposed change, and taking some of them  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Pure text functions behind the review.  The unified diff the server sends with a permission
;; request is cut, file by file, into one hunk per run of changed lines (a diff's hunk joins
;; changes a few lines apart; the review offers each on its own), and checked as it is read:
;; the hunks must rebuild the file's proposal exactly, else the file is reviewed as one hunk,
;; so what the user accepts is always what is written.  The reading is a builder that takes
;; the diff a few lines at a time (`agent-lsp-hunks-step'), so a rewrite of megabytes is read
;; in slices (agent-lsp-work.el) and Emacs stays responsive.  It makes no copy of the old or
;; new text: lines are compared where they are.
;;
;; A hunk is a plist (:old-start N :old-count N :before (LINE ...) :after (LINE ...)) and its
;; lines, ((TYPE . LINE) ...) from `agent-lsp-hunks-lines', TYPE one of ?- and ?+, LINE with its
;; newline unless the file has none there; :before and :after are up to 3 lines of context,
;; shown but not applied.  A hunk read from the diff keeps only where its lines are in it
;; (:diff :beg :end) and how many it adds (:added), so a rewrite of megabytes is not copied
;; line by line; the one hunk of a whole file keeps the two texts (:whole-old :whole-new).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'seq)

;;; Lines

(defun agent-lsp-hunks-split-lines (text)
  "TEXT as a list of lines, each with its newline (the last one may lack it)."
  (let ((start 0) lines)
    (while (string-match "\n" text start)
      (push (substring text start (match-end 0)) lines)
      (setq start (match-end 0)))
    (when (< start (length text)) (push (substring text start) lines))
    (nreverse lines)))

(defun agent-lsp-hunks--forward-lines (text pos n)
  "The position in TEXT N lines after POS (or its end)."
  (while (and (> n 0) (< pos (length text)))
    (let ((nl (string-search "\n" text pos)))
      (setq pos (if nl (1+ nl) (length text)) n (1- n))))
  pos)

(defun agent-lsp-hunks--same-p (a beg end b pos)
  "Non-nil when A from BEG to END is the text of B at POS."
  (let ((b-end (+ pos (- end beg))))
    (and (<= b-end (length b)) (eq t (compare-strings a beg end b pos b-end)))))

;;; Files of a diff

(defun agent-lsp-hunks--header-at-p (diff pos)
  "Non-nil when a file header (\"--- OLD\", \"+++ NEW\") is at POS in DIFF."
  (and (eq t (compare-strings diff pos (min (length diff) (+ pos 4)) "--- " nil nil))
       (let ((eol (string-search "\n" diff pos)))
         (and eol (eq t (compare-strings diff (1+ eol) (min (length diff) (+ eol 5)) "+++ " nil nil))))))

(defun agent-lsp-hunks--next-header (diff pos)
  "The position of the first file header of DIFF at or after POS, or nil."
  (if (and (= pos 0) (agent-lsp-hunks--header-at-p diff 0))
      0
    (let ((found nil) (p (max 0 (1- pos))))
      (while (and (not found) (setq p (string-search "\n--- " diff p)))
        (setq p (1+ p))
        (when (agent-lsp-hunks--header-at-p diff p) (setq found p)))
      found)))

(defun agent-lsp-hunks--header-name (diff pos)
  "The file name of the header at POS in DIFF (the old one for a deletion)."
  (let* ((eol (string-search "\n" diff pos))
         (old (substring diff (+ pos 4) eol))
         (new (substring diff (+ eol 5) (or (string-search "\n" diff (1+ eol)) (length diff)))))
    (if (string= new "/dev/null") (string-remove-prefix "a/" old) (string-remove-prefix "b/" new))))

(defun agent-lsp-hunks-sections (diff)
  "The file sections of the unified DIFF: an alist of name -> (BEG . END) in DIFF."
  (let ((pos (agent-lsp-hunks--next-header diff 0)) sections)
    (while pos
      (let ((next (agent-lsp-hunks--next-header diff (1+ pos))))
        (push (cons (agent-lsp-hunks--header-name diff pos) (cons pos (or next (length diff)))) sections)
        (setq pos next)))
    (nreverse sections)))

;;; The builder

(cl-defstruct (agent-lsp--hunker (:constructor agent-lsp--make-hunker (diff pos end old new)))
  "Reads one file's section of a diff (DIFF from POS to END) into hunks.
OLD and NEW are the file's texts.  Being read: the old line number of
the next line; the last context lines (a ring of their positions, CTX,
with CTX-N of them); the run of changes being collected (from RUN-BEG
to RUN-END in DIFF, starting at old line FIRST); the previous hunk,
whose :after may still grow.  Checked as read, without copying a line:
VIDX and VPOS (the next old line not yet rebuilt, and its position),
NPOS (the position in NEW rebuilt up to), PLUS (an added line waiting
to learn whether it ends with a newline), OK."
  diff pos end old new in-hunk (old-line 0)
  (ctx (make-vector 6 0)) (ctx-n 0) run-beg run-end (first 0) (removed 0) (added 0) prev groups
  (vidx 0) (vpos 0) (npos 0) plus (ok t) done)

(defun agent-lsp--hunker-substring (h beg eol)
  "The diff line of H from BEG to EOL, without its type, with a newline."
  (let ((diff (agent-lsp--hunker-diff h)))
    (cond
     ((= beg eol) "\n")             ; an empty context line that lost its space
     ((< eol (length diff))
      (substring diff (1+ beg) (1+ eol)))
     (t (concat (substring diff (1+ beg) eol) "\n")))))

;;; Checking, as the lines are read

(defun agent-lsp--hunker-check-gap (h start)
  "Check that the old lines of H before line index START are NEW's next text."
  (when (agent-lsp--hunker-ok h)
    (let* ((old (agent-lsp--hunker-old h)) (vpos (agent-lsp--hunker-vpos h))
           (gap-end (agent-lsp-hunks--forward-lines old vpos (- start (agent-lsp--hunker-vidx h)))))
      (if (not (and (>= start (agent-lsp--hunker-vidx h))
                    (agent-lsp-hunks--same-p old vpos gap-end (agent-lsp--hunker-new h) (agent-lsp--hunker-npos h))))
          (setf (agent-lsp--hunker-ok h) nil)
        (setf (agent-lsp--hunker-npos h) (+ (agent-lsp--hunker-npos h) (- gap-end vpos))
              (agent-lsp--hunker-vidx h) start
              (agent-lsp--hunker-vpos h) gap-end)))))

(defun agent-lsp--hunker-check-plus (h newline)
  "Check the added line kept in H against NEW; NEWLINE when it ends with one."
  (let ((plus (agent-lsp--hunker-plus h)))
    (setf (agent-lsp--hunker-plus h) nil)
    (when (and plus (agent-lsp--hunker-ok h))
      (let* ((new (agent-lsp--hunker-new h)) (npos (agent-lsp--hunker-npos h))
             (after (+ npos (- (cdr plus) (car plus) 1))))
        (if (and (agent-lsp-hunks--same-p (agent-lsp--hunker-diff h) (1+ (car plus)) (cdr plus) new npos)
                 (or (not newline) (and (< after (length new)) (eq (aref new after) ?\n))))
            (setf (agent-lsp--hunker-npos h) (if newline (1+ after) after))
          (setf (agent-lsp--hunker-ok h) nil))))))

;;; Runs of changes and their context

(defun agent-lsp--hunker-context-strings (h)
  "The context lines kept in H, oldest first, as strings."
  (let ((ctx (agent-lsp--hunker-ctx h)) (n (agent-lsp--hunker-ctx-n h)) lines)
    (dotimes (i (min n 3))
      (let ((slot (* 2 (% (- n 1 i) 3))))
        (push (agent-lsp--hunker-substring h (aref ctx slot) (aref ctx (1+ slot))) lines)))
    lines))

(defun agent-lsp--hunker-close-run (h)
  "Make a hunk of the changed lines collected in H."
  (agent-lsp--hunker-check-plus h t)
  (when (agent-lsp--hunker-run-beg h)
    (let* ((removed (agent-lsp--hunker-removed h))
           (group (list :old-start (if (> removed 0) (agent-lsp--hunker-first h) (1- (agent-lsp--hunker-first h)))
                        :old-count removed :added (agent-lsp--hunker-added h)
                        :diff (agent-lsp--hunker-diff h)
                        :beg (agent-lsp--hunker-run-beg h) :end (agent-lsp--hunker-run-end h)
                        :before (agent-lsp--hunker-context-strings h) :after nil)))
      (push group (agent-lsp--hunker-groups h))
      (setf (agent-lsp--hunker-prev h) group
            (agent-lsp--hunker-run-beg h) nil
            (agent-lsp--hunker-removed h) 0
            (agent-lsp--hunker-added h) 0
            (agent-lsp--hunker-ctx-n h) 0))))

(defun agent-lsp--hunker-context-line (h beg eol)
  "Feed H the context line from BEG to EOL."
  (agent-lsp--hunker-close-run h)
  (let ((prev (agent-lsp--hunker-prev h)) (n (agent-lsp--hunker-ctx-n h)) (ctx (agent-lsp--hunker-ctx h)))
    (when (and prev (< n 3) (= n (length (plist-get prev :after))))
      (plist-put prev :after (append (plist-get prev :after)
                                     (list (agent-lsp--hunker-substring h beg eol)))))
    (aset ctx (* 2 (% n 3)) beg)
    (aset ctx (1+ (* 2 (% n 3))) eol)
    (setf (agent-lsp--hunker-ctx-n h) (1+ n)))
  (cl-incf (agent-lsp--hunker-old-line h)))

(defun agent-lsp--hunker-change-line (h char beg eol next)
  "Feed H the changed line from BEG to EOL, of type CHAR; the next line is at NEXT."
  (agent-lsp--hunker-check-plus h t)
  (unless (agent-lsp--hunker-run-beg h)
    (setf (agent-lsp--hunker-run-beg h) beg
          (agent-lsp--hunker-first h) (agent-lsp--hunker-old-line h))
    (agent-lsp--hunker-check-gap h (1- (agent-lsp--hunker-old-line h))))
  (setf (agent-lsp--hunker-run-end h) next)
  (if (eq char ?+)
      (setf (agent-lsp--hunker-added h) (1+ (agent-lsp--hunker-added h))
            (agent-lsp--hunker-plus h) (cons beg eol))
    (cl-incf (agent-lsp--hunker-removed h))
    (cl-incf (agent-lsp--hunker-old-line h))
    (when (agent-lsp--hunker-ok h)
      (setf (agent-lsp--hunker-vpos h) (agent-lsp-hunks--forward-lines (agent-lsp--hunker-old h) (agent-lsp--hunker-vpos h) 1)
            (agent-lsp--hunker-vidx h) (1+ (agent-lsp--hunker-vidx h))))))

(defun agent-lsp--hunker-hunk-start (h header)
  "Start the diff hunk whose HEADER (an @@ line) H just read."
  (when (string-match "\\`@@ -\\([0-9]+\\)\\(?:,\\([0-9]+\\)\\)? \\+[0-9]+\\(?:,[0-9]+\\)? @@" header)
    (let ((start (string-to-number (match-string 1 header)))
          (count (if (match-string 2 header) (string-to-number (match-string 2 header)) 1)))
      (agent-lsp--hunker-close-run h)
      (setf (agent-lsp--hunker-in-hunk h) t
            (agent-lsp--hunker-prev h) nil
            (agent-lsp--hunker-ctx-n h) 0
            (agent-lsp--hunker-old-line h) (if (= count 0) (1+ start) start)))))

(defun agent-lsp--hunker-line (h beg eol next)
  "Feed H the diff line from BEG to EOL, followed by the line at NEXT."
  (let* ((diff (agent-lsp--hunker-diff h))
         (char (and (< beg eol) (aref diff beg))))
    (cond
     ((eq char ?@) (agent-lsp--hunker-hunk-start h (substring diff beg (min eol (+ beg 100)))))
     ((not (agent-lsp--hunker-in-hunk h)) nil)
     ((eq char ?\\)
      ;; "\ No newline at end of file": the line before has none.
      (agent-lsp--hunker-check-plus h nil)
      (when (agent-lsp--hunker-run-beg h) (setf (agent-lsp--hunker-run-end h) next)))
     ((memq char '(?- ?+)) (agent-lsp--hunker-change-line h char beg eol next))
     ;; An empty context line may have lost its leading space.
     ((memq char '(?\s nil)) (agent-lsp--hunker-context-line h beg eol)))))

(defun agent-lsp--hunker-finish (h)
  "H read its whole section: check the rest of the file."
  (agent-lsp--hunker-close-run h)
  (let ((old (agent-lsp--hunker-old h)) (new (agent-lsp--hunker-new h)))
    (unless (and (agent-lsp--hunker-ok h)
                 (agent-lsp--hunker-groups h)
                 (agent-lsp-hunks--same-p old (agent-lsp--hunker-vpos h) (length old) new (agent-lsp--hunker-npos h))
                 (= (+ (agent-lsp--hunker-npos h) (- (length old) (agent-lsp--hunker-vpos h))) (length new)))
      (setf (agent-lsp--hunker-ok h) nil)))
  (setf (agent-lsp--hunker-done h) t))

(defun agent-lsp-hunks-builder (diff name old new)
  "A builder of the hunks of the file NAME in DIFF, changing OLD into NEW."
  (let ((section (cdr (assoc name (agent-lsp-hunks-sections (or diff ""))))))
    (agent-lsp--make-hunker (or diff "") (if section (car section) 0) (if section (cdr section) 0) old new)))

(defun agent-lsp-hunks-step (h &optional lines)
  "Read up to LINES (default 500) more lines of the diff into H; non-nil when done."
  (let ((n (or lines 500)) (diff (agent-lsp--hunker-diff h)) (end (agent-lsp--hunker-end h)))
    (while (and (> n 0) (< (agent-lsp--hunker-pos h) end))
      (let* ((pos (agent-lsp--hunker-pos h))
             (nl (string-search "\n" diff pos))
             (eol (if (and nl (< nl end)) nl end))
             (next (min end (1+ eol))))
        (agent-lsp--hunker-line h pos eol next)
        (setf (agent-lsp--hunker-pos h) next)
        (setq n (1- n))))
    (when (>= (agent-lsp--hunker-pos h) end)
      (unless (agent-lsp--hunker-done h) (agent-lsp--hunker-finish h))
      t)))

(defun agent-lsp-hunks-result (h)
  "Return the hunks built in H: one per run of changed lines, or one in all."
  (if (agent-lsp--hunker-ok h)
      (reverse (agent-lsp--hunker-groups h))
    (agent-lsp-hunks-whole (agent-lsp--hunker-old h) (agent-lsp--hunker-new h))))

(defun agent-lsp-hunks-for-file (diff name old new)
  "The hunks of the file NAME in DIFF, changing OLD into NEW, read at once."
  (let ((h (agent-lsp-hunks-builder diff name old new)))
    (while (not (agent-lsp-hunks-step h 100000)))
    (agent-lsp-hunks-result h)))

;;; A hunk's lines

(defun agent-lsp-hunks--typed-lines (text type max)
  "The lines of TEXT as ((TYPE . LINE) ...), at most MAX of them."
  (let ((pos 0) (n max) lines)
    (while (and (< pos (length text)) (> n 0))
      (let ((next (agent-lsp-hunks--forward-lines text pos 1)))
        (push (cons type (substring text pos next)) lines)
        (setq pos next n (1- n))))
    (nreverse lines)))

(defun agent-lsp-hunks--count-lines (text)
  "The number of lines of TEXT (a last line without a newline counts)."
  (let ((pos 0) (n 0))
    (while (< pos (length text))
      (setq pos (agent-lsp-hunks--forward-lines text pos 1) n (1+ n)))
    n))

(defun agent-lsp-hunks-lines (hunk &optional max)
  "The lines of HUNK, ((TYPE . TEXT) ...), read from its diff; at most MAX of them."
  (if (plist-member hunk :whole-old)
      (let* ((max (or max most-positive-fixnum))
             (removed (agent-lsp-hunks--typed-lines (plist-get hunk :whole-old) ?- max)))
        (append removed (agent-lsp-hunks--typed-lines (plist-get hunk :whole-new) ?+ (- max (length removed)))))
    (let ((diff (plist-get hunk :diff)) (pos (plist-get hunk :beg)) (end (plist-get hunk :end))
          (n (or max most-positive-fixnum)) lines)
      (while (and (< pos end) (or (> n 0) (eq (aref diff pos) ?\\)))
        (let* ((nl (string-search "\n" diff pos)) (eol (if (and nl (< nl end)) nl end)))
          (if (eq (aref diff pos) ?\\)
              ;; "\ No newline at end of file": the line before has none.
              (when lines (setcdr (car lines) (string-remove-suffix "\n" (cdar lines))))
            (push (cons (aref diff pos) (if (< eol (length diff))
                                            (substring diff (1+ pos) (1+ eol))
                                          (concat (substring diff (1+ pos) eol) "\n")))
                  lines)
            (setq n (1- n)))
          (setq pos (min end (1+ eol)))))
      (nreverse lines))))

(defun agent-lsp-hunks-counts (hunk)
  "The numbers of lines removed and added by HUNK, (REMOVED . ADDED)."
  (cons (plist-get hunk :old-count) (plist-get hunk :added)))

;;; Taking hunks

(defun agent-lsp-hunks--added-text (hunk)
  "The text put by HUNK in place of the lines it takes out."
  (if (plist-member hunk :whole-new)
      (plist-get hunk :whole-new)
    (mapconcat #'cdr (cl-remove ?- (agent-lsp-hunks-lines hunk) :key #'car) "")))

(defun agent-lsp-hunks-apply (old hunks taken)
  "The text OLD becomes when the HUNKS marked in TAKEN are applied.
TAKEN is a list of booleans, one per hunk.  The lines between hunks are
copied a stretch at a time, not line by line."
  (let ((pos 0) (idx 0) out)
    (cl-loop for hunk in hunks for take in taken do
             (let* ((count (plist-get hunk :old-count))
                    (start (if (= count 0) (plist-get hunk :old-start) (1- (plist-get hunk :old-start))))
                    (start-pos (agent-lsp-hunks--forward-lines old pos (max 0 (- start idx))))
                    (end-pos (agent-lsp-hunks--forward-lines old start-pos count)))
               (push (substring old pos start-pos) out)
               (push (if take (agent-lsp-hunks--added-text hunk) (substring old start-pos end-pos)) out)
               (setq pos end-pos idx (+ (max start idx) count))))
    (push (substring old pos) out)
    (mapconcat #'identity (nreverse out) "")))

(defun agent-lsp-hunks-whole (old new)
  "A list of one hunk replacing all of OLD by all of NEW (lines read when needed)."
  (list (list :old-start (if (> (length old) 0) 1 0)
              :old-count (agent-lsp-hunks--count-lines old)
              :added (agent-lsp-hunks--count-lines new)
              :whole-old old :whole-new new :before nil :after nil)))

(provide 'agent-lsp-hunks)
;;; agent-lsp-hunks.el ends here
