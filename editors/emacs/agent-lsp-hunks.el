;;; agent-lsp-hunks.el --- The hunks of a proposed change, and taking some of them  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Pure text functions behind the review: split the unified diff the server sends with a
;; permission request into each file's hunks, and build the text a file gets when only
;; some hunks are taken.  A file whose diff does not rebuild its proposal exactly (or that
;; has none) is reviewed as one hunk, so what the user accepts is always what is written.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defun agent-lsp-hunks-split-lines (text)
  "TEXT as a list of lines, each with its newline (the last one may lack it)."
  (let ((start 0) lines)
    (while (string-match "\n" text start)
      (push (substring text start (match-end 0)) lines)
      (setq start (match-end 0)))
    (when (< start (length text)) (push (substring text start) lines))
    (nreverse lines)))

(defun agent-lsp-hunks-parse (diff)
  "Parse the unified DIFF into an alist: file name -> list of hunks.
A hunk is a plist (:old-start N :old-count N :lines ((TYPE . LINE) ...)),
TYPE one of ?\\s, ?- and ?+, LINE with its newline unless the diff says
there is none."
  (let (files name hunk (lines (split-string (or diff "") "\n")))
    (cl-flet ((close-hunk ()
                (when hunk
                  (push (plist-put hunk :lines (nreverse (plist-get hunk :lines)))
                        (alist-get name files nil nil #'equal))
                  (setq hunk nil))))
      (while lines
        (let ((line (pop lines)))
          (cond
           ((and (string-prefix-p "--- " line) lines (string-prefix-p "+++ " (car lines)))
            (close-hunk)
            (let ((old (substring line 4)) (new (substring (pop lines) 4)))
              (setq name (if (string= new "/dev/null")
                             (string-remove-prefix "a/" old)
                           (string-remove-prefix "b/" new)))
              (unless (assoc name files) (push (list name) files))))
           ((string-match "\\`@@ -\\([0-9]+\\)\\(?:,\\([0-9]+\\)\\)? \\+[0-9]+\\(?:,[0-9]+\\)? @@" line)
            (close-hunk)
            (setq hunk (list :old-start (string-to-number (match-string 1 line))
                             :old-count (if (match-string 2 line)
                                            (string-to-number (match-string 2 line))
                                          1)
                             :lines nil)))
           ((and hunk (string-prefix-p "\\" line))
            ;; "\ No newline at end of file": the line before has no newline.
            (let ((last (car (plist-get hunk :lines))))
              (when last (setcdr last (string-remove-suffix "\n" (cdr last))))))
           ((and hunk (> (length line) 0) (memq (aref line 0) '(?\s ?- ?+)))
            (plist-put hunk :lines (cons (cons (aref line 0) (concat (substring line 1) "\n"))
                                         (plist-get hunk :lines))))
           ((and hunk (string= line "") lines)
            ;; An empty context line whose leading space was trimmed.
            (plist-put hunk :lines (cons (cons ?\s "\n") (plist-get hunk :lines)))))))
      (close-hunk))
    (mapcar (lambda (f) (cons (car f) (nreverse (cdr f)))) files)))

(defun agent-lsp-hunks-split (hunk)
  "Split HUNK into one hunk per run of changed lines.
A diff's hunk joins changes that are a few lines apart; the review
offers each change on its own.  Up to 3 context lines go to :before
and :after, shown but not applied."
  (let ((old-line (if (= (plist-get hunk :old-count) 0)
                      (1+ (plist-get hunk :old-start))
                    (plist-get hunk :old-start)))
        (context nil) (groups nil)
        ;; The run being collected: its first old line, removed count, lines (reversed).
        (first nil) (removed 0) (run nil))
    (cl-flet ((close-run ()
                (when run
                  (push (list :old-start (if (> removed 0) first (1- first))
                              :old-count removed
                              :lines (nreverse run)
                              :before context
                              :after nil)
                        groups)
                  (setq run nil removed 0 context nil))))
      (dolist (line (plist-get hunk :lines))
        (if (eq (car line) ?\s)
            (progn
              (close-run)
              (let ((prev (car groups)))
                (when (and prev (< (length (plist-get prev :after)) 3)
                           (< (length context) 3) (= (length context) (length (plist-get prev :after))))
                  (plist-put prev :after (append (plist-get prev :after) (list (cdr line))))))
              (setq context (last (append context (list (cdr line))) 3))
              (cl-incf old-line))
          (unless run (setq first old-line))
          (push line run)
          (when (eq (car line) ?-)
            (cl-incf removed)
            (cl-incf old-line))))
      (close-run))
    (nreverse groups)))

(defun agent-lsp-hunks-apply (old hunks taken)
  "The text OLD becomes when the HUNKS marked in TAKEN are applied.
TAKEN is a list of booleans, one per hunk."
  (let ((vec (vconcat (agent-lsp-hunks-split-lines old))) (cursor 0) out)
    (cl-loop for hunk in hunks for take in taken do
             (let* ((count (plist-get hunk :old-count))
                    (start (min (length vec)
                                (if (= count 0) (plist-get hunk :old-start)
                                  (1- (plist-get hunk :old-start))))))
               (while (< cursor start) (push (aref vec cursor) out) (cl-incf cursor))
               (if take
                   (dolist (line (plist-get hunk :lines))
                     (unless (eq (car line) ?-) (push (cdr line) out)))
                 (dotimes (i count)
                   (when (< (+ start i) (length vec)) (push (aref vec (+ start i)) out))))
               (setq cursor (min (length vec) (+ start count)))))
    (while (< cursor (length vec)) (push (aref vec cursor) out) (cl-incf cursor))
    (apply #'concat (nreverse out))))

(defun agent-lsp-hunks-whole (old new)
  "One hunk replacing all of OLD by all of NEW."
  (let ((old-lines (agent-lsp-hunks-split-lines old)))
    (list (list :old-start (if old-lines 1 0)
                :old-count (length old-lines)
                :lines (append (mapcar (lambda (l) (cons ?- l)) old-lines)
                               (mapcar (lambda (l) (cons ?+ l)) (agent-lsp-hunks-split-lines new)))))))

(defun agent-lsp-hunks-for (old new hunks)
  "Return HUNKS cut into single edits if they rebuild NEW from OLD.
Else return one hunk for the whole file."
  (let ((changes (apply #'append (mapcar #'agent-lsp-hunks-split hunks))))
    (if (and changes (equal (agent-lsp-hunks-apply old changes (make-list (length changes) t)) new))
        changes
      (agent-lsp-hunks-whole old new))))

(provide 'agent-lsp-hunks)
;;; agent-lsp-hunks.el ends here
