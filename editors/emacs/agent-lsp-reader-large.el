;;; agent-lsp-reader-large.el --- Decode a message of megabytes in slices  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The review of a 2 MB rewrite arrives as one message of about 9 MB (the diff, the old and
;; the new text).  Emacs 29 and older parse JSON with libjansson, which takes a third of a
;; second for that, in one piece: Emacs would freeze.  Such a message is decoded here in
;; slices (agent-lsp-work.el): its long strings are found and cut out, the small skeleton
;; left is parsed at once, and each long string is decoded a chunk at a time, then put back
;; where it was.  Emacs 30's own JSON parser reads the same message in a few tens of
;; milliseconds, so there a message is always parsed whole.

;;; Code:

(require 'cl-lib)
(require 'agent-lsp-work)

(defvar agent-lsp-large-message-size (* 512 1024)
  "Characters above which a message is decoded in slices (Emacs 29 and older).")

(defconst agent-lsp--large-string 8192
  "Characters above which a string of a large message is decoded in chunks.")

(defconst agent-lsp--large-chunk 65536
  "Characters of a long string decoded at a time.")

(defun agent-lsp--large-p (beg end)
  "Non-nil when the message from BEG to END is to be decoded in slices."
  (and (< emacs-major-version 30)
       (fboundp 'json-parse-string)
       (> (- end beg) agent-lsp-large-message-size)))

(defun agent-lsp--json-parse (string)
  "STRING's JSON as jsonrpc.el represents it."
  (json-parse-string string :object-type 'plist :null-object nil :false-object :json-false))

;;; Finding the long strings

(cl-defstruct (agent-lsp--decoder (:constructor agent-lsp--make-decoder (beg end)))
  "The decoding of the message from BEG to END (markers) of its buffer.
SCAN is where finding strings goes on; IN the string being scanned,
\(START LAST . CHUNK-STARTS); STRINGS the long ones found, each
\(CONTENT-BEG CONTENT-END . CHUNK-STARTS), last found first; SKELETON the
message parsed with place holders; PIECES the decoded chunks of the
string being decoded; TEXTS the decoded strings by place holder."
  beg end scan in strings skeleton pieces (texts (make-hash-table :test #'equal))
  (nonce (random 1000000000)))

(defun agent-lsp--decoder-string-part (d limit)
  "Go on in the string of D up to LIMIT; note it in D when it ends, if long.
Chunks start only where a character or an escape does, never inside an
escape or between the two halves of a surrogate pair."
  (let ((in (agent-lsp--decoder-in d)))
    (while (progn (skip-chars-forward "^\"\\\\" (min limit (+ (point) agent-lsp--large-chunk)))
                  (and (< (point) limit) (not (eq (char-after) ?\"))))
      (when (and (>= (- (point) (cadr in)) agent-lsp--large-chunk)
                 (not (looking-at-p "\\\\u[dD][c-fC-F]")))
        (setcdr (cdr in) (cons (point) (cddr in)))
        (setcar (cdr in) (point)))
      (when (eq (char-after) ?\\) (forward-char 2)))
    (when (and (< (point) limit) (eq (char-after) ?\"))
      (when (>= (- (point) (car in)) agent-lsp--large-string)
        (push (cons (car in) (cons (point) (reverse (cddr in)))) (agent-lsp--decoder-strings d)))
      (setf (agent-lsp--decoder-in d) nil)
      (forward-char 1))))

(defun agent-lsp--decoder-find-strings (d)
  "Go on finding the strings of D's message a while; non-nil once all are found."
  (let* ((end (marker-position (agent-lsp--decoder-end d)))
         (limit (min end (+ (or (agent-lsp--decoder-scan d) (agent-lsp--decoder-beg d)) 131072))))
    (goto-char (or (agent-lsp--decoder-scan d) (agent-lsp--decoder-beg d)))
    (while (< (point) limit)
      (if (agent-lsp--decoder-in d)
          (agent-lsp--decoder-string-part d limit)
        (skip-chars-forward "^\"" limit)
        (when (< (point) limit)
          (forward-char 1)
          (setf (agent-lsp--decoder-in d) (list (point) (point))))))
    (setf (agent-lsp--decoder-scan d) (point))
    (and (>= (point) end) (null (agent-lsp--decoder-in d)))))

;;; The skeleton, and the long strings

(defun agent-lsp--decoder-holder (d i)
  "The place holder of the long string number I of D."
  (format "agent-lsp-large-%d-%d" (agent-lsp--decoder-nonce d) i))

(defun agent-lsp--decoder-parse-skeleton (d)
  "Parse D's message with its long strings replaced by place holders."
  (let ((pos (marker-position (agent-lsp--decoder-beg d))) (pieces nil) (i 0))
    (setf (agent-lsp--decoder-strings d) (nreverse (agent-lsp--decoder-strings d)))
    (dolist (s (agent-lsp--decoder-strings d))
      (push (buffer-substring-no-properties pos (car s)) pieces)
      (push (agent-lsp--decoder-holder d i) pieces)
      (setq pos (cadr s) i (1+ i)))
    (push (buffer-substring-no-properties pos (agent-lsp--decoder-end d)) pieces)
    (setf (agent-lsp--decoder-skeleton d)
          (agent-lsp--json-parse (apply #'concat (nreverse pieces))))))

(defvar agent-lsp--decoder-buffer nil
  "The buffer a chunk of a long string is decoded in.")

(defun agent-lsp--decode-chunk (from to)
  "The string whose JSON text (without its quotes) is from FROM to TO here."
  (let ((source (current-buffer)))
    (unless (buffer-live-p agent-lsp--decoder-buffer)
      (setq agent-lsp--decoder-buffer (generate-new-buffer " *agent-lsp decode*")))
    (with-current-buffer agent-lsp--decoder-buffer
      (erase-buffer)
      ;; Copied buffer to buffer: no string of the chunk is made before the one decoded.
      (insert "[\"")
      (insert-buffer-substring source from to)
      (insert "\"]")
      (goto-char (point-min))
      (aref (json-parse-buffer) 0))))

(defun agent-lsp--decoder-chunk (d)
  "Decode the next chunk of D's long strings; non-nil when all are decoded."
  (let* ((s (car (agent-lsp--decoder-strings d)))
         (from (car s)) (to (or (car (cddr s)) (cadr s))))
    (push (agent-lsp--decode-chunk from to) (agent-lsp--decoder-pieces d))
    (if (cddr s)
        (setcar s (pop (cddr s)))
      (puthash (agent-lsp--decoder-holder d (hash-table-count (agent-lsp--decoder-texts d)))
               (apply #'concat (nreverse (agent-lsp--decoder-pieces d)))
               (agent-lsp--decoder-texts d))
      (setf (agent-lsp--decoder-pieces d) nil)
      (pop (agent-lsp--decoder-strings d)))
    (null (agent-lsp--decoder-strings d))))

(defun agent-lsp--decoder-fill (d value)
  "VALUE, a part of D's skeleton, with the long strings put back."
  (cond ((stringp value) (gethash value (agent-lsp--decoder-texts d) value))
        ((vectorp value) (cl-map 'vector (lambda (v) (agent-lsp--decoder-fill d v)) value))
        ((consp value) (mapcar (lambda (v) (agent-lsp--decoder-fill d v)) value))
        (t value)))

(defun agent-lsp--decoder-step (d buf)
  "A step of decoding D in BUF: its message when done, else nil."
  (unless (buffer-live-p buf) (error "The server's output was closed"))
  (with-current-buffer buf
    (cond ((null (agent-lsp--decoder-skeleton d))
           (when (agent-lsp--decoder-find-strings d) (agent-lsp--decoder-parse-skeleton d))
           nil)
          ((and (agent-lsp--decoder-strings d) (not (agent-lsp--decoder-chunk d))) nil)
          (t (agent-lsp--decoder-fill d (agent-lsp--decoder-skeleton d))))))

(defun agent-lsp-decode-large (buf beg end done fail)
  "Decode the JSON in BUF from BEG to END (markers) in slices; call DONE with it.
FAIL gets the error message when it is no JSON."
  (let ((d (agent-lsp--make-decoder beg end)))
    (agent-lsp-work-start (lambda () (agent-lsp--decoder-step d buf)) done fail)))

(provide 'agent-lsp-reader-large)
;;; agent-lsp-reader-large.el ends here
