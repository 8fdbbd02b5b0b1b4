;;; agent-lsp-reader.el --- Read the server's messages off its output  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The package reads the server's output itself and hands each message to jsonrpc.el's
;; `jsonrpc-connection-receive'.  jsonrpc.el's own reader stops making progress on bytes that
;; are not a framed message (it looks only 100 characters ahead for a header) and only warns
;; about a frame that is not JSON; both mean the stream cannot be trusted, so a malformed
;; message stops the server with one clear message and the next command starts afresh.
;; Reading here also parses each message once, where checking in front of jsonrpc.el's reader
;; parsed it twice (Emacs 28's JSON parser made that the largest cost of streaming).  A message
;; of megabytes is decoded in slices on Emacs 29 and older (agent-lsp-reader-large.el), the
;; messages after it waiting for it.

;;; Code:

(require 'jsonrpc)
(require 'agent-lsp-reader-large)

(defvar json-object-type)
(defvar json-array-type)
(defvar json-false)
(defvar json-null)
(declare-function json-read "json" ())
(declare-function agent-lsp--malformed "agent-lsp-connection" (conn what))
(declare-function agent-lsp--log "agent-lsp-connection" (format-string &rest args))

(defvar agent-lsp--receive-buffer nil
  "The buffer current while a message is handled, away from the user's buffers.")

(defun agent-lsp--process-filter (proc string)
  "Read STRING from PROC and hand each complete message to its connection."
  (let ((conn (process-get proc 'jsonrpc-connection)))
    (when conn
      (let ((buf (process-get proc 'agent-lsp-frames)))
        (unless (buffer-live-p buf)
          (setq buf (generate-new-buffer (format " *%s frames*" (process-name proc))))
          (process-put proc 'agent-lsp-frames buf))
        (with-current-buffer buf
          (goto-char (point-max))
          (insert string))
        (agent-lsp--read-pending proc conn buf)))))

(defun agent-lsp--read-pending (proc conn buf)
  "Read the messages in BUF (PROC's output) for CONN, unless reading already.
A handler that sends may let Emacs read more output into a nested call:
that call only appends, and the reading still running takes it in
order; so does a large message being decoded in slices."
  (unless (process-get proc 'agent-lsp-reading)
    (process-put proc 'agent-lsp-reading t)
    (let ((large nil))
      (unwind-protect (setq large (agent-lsp--read-messages conn buf))
        (unless large (process-put proc 'agent-lsp-reading nil))))))

(defun agent-lsp--receive (conn message)
  "Hand MESSAGE to CONN, away from the user's buffers."
  (unless (buffer-live-p agent-lsp--receive-buffer)
    (setq agent-lsp--receive-buffer (generate-new-buffer " *agent-lsp receive*")))
  (condition-case err
      (with-current-buffer agent-lsp--receive-buffer
        (jsonrpc-connection-receive conn message))
    (error (agent-lsp--log "error handling a message: %s" (error-message-string err)))))

(defun agent-lsp--read-messages (conn buf)
  "Hand every complete message in BUF to CONN, then drop what was read.
Return non-nil when a large message is being decoded in slices: the
messages after it wait for it."
  (let ((pos 1) next large)
    (while (and (not large) (buffer-live-p buf)
                (setq next (with-current-buffer buf (agent-lsp--take-message pos))))
      (pcase (car next)
        (`(agent-lsp-bad . ,why)
         (with-current-buffer buf (erase-buffer))
         (setq pos 1)
         (agent-lsp--malformed conn why))
        (`(agent-lsp-large ,beg ,end)
         (setq large (with-current-buffer buf (cons (copy-marker beg) (copy-marker end)))))
        (msg (setq pos (cdr next)) (agent-lsp--receive conn msg))))
    ;; Drop what was read once, not message by message.
    (when (buffer-live-p buf)
      (with-current-buffer buf (delete-region (point-min) (min pos (point-max)))))
    (when large (agent-lsp--read-large conn buf (car large) (cdr large)))
    large))

(defun agent-lsp--read-large (conn buf beg end)
  "Decode the message from BEG to END in BUF in slices, hand it to CONN, read on."
  (let ((proc (jsonrpc--process conn)))
    (agent-lsp-decode-large
     buf beg end
     (lambda (message)
       (when (buffer-live-p buf) (with-current-buffer buf (delete-region (point-min) end)))
       (process-put proc 'agent-lsp-reading nil)
       (agent-lsp--receive conn message)
       (when (buffer-live-p buf) (agent-lsp--read-pending proc conn buf)))
     (lambda (why)
       (process-put proc 'agent-lsp-reading nil)
       (when (process-live-p proc)
         (agent-lsp--malformed conn (format "a large message that is no JSON: %s" why)))))))

(defun agent-lsp--take-message (pos)
  "Read the message at POS in the current buffer.
Return (MESSAGE . END), nil when it is not complete yet, or
\((agent-lsp-bad . WHY) . END)."
  (goto-char pos)
  (let ((head-end (save-excursion (search-forward "\r\n\r\n" nil t))))
    (cond
     ((null head-end)
      (and (> (- (point-max) pos) 200) (not (looking-at-p "Content-"))
           (cons (cons 'agent-lsp-bad (agent-lsp--snippet pos)) (point-max))))
     ((not (looking-at "\\(?:[A-Za-z-]+: [^\r\n]*\r\n\\)*?Content-Length: *\\([0-9]+\\)\r\n"))
      (cons (cons 'agent-lsp-bad (agent-lsp--snippet pos)) (point-max)))
     (t
      (let* ((end-byte (+ (position-bytes head-end) (string-to-number (match-string 1))))
             (body-end (and (<= end-byte (position-bytes (point-max))) (byte-to-position end-byte))))
        (cond
         ((null body-end) nil)
         ((agent-lsp--large-p head-end body-end) (cons (list 'agent-lsp-large head-end body-end) body-end))
         (t (cons (condition-case nil
                      (save-restriction
                        (narrow-to-region head-end body-end)
                        (goto-char (point-min))
                        (agent-lsp--json-read))
                    (error (cons 'agent-lsp-bad (agent-lsp--snippet head-end))))
                  body-end))))))))

(defun agent-lsp--json-read ()
  "Read the JSON in the current buffer as jsonrpc.el represents it."
  (if (fboundp 'json-parse-buffer)
      (json-parse-buffer :object-type 'plist :null-object nil :false-object :json-false)
    ;; An Emacs 28 built without libjansson.
    (require 'json)
    (let ((json-object-type 'plist) (json-array-type 'vector)
          (json-false :json-false) (json-null nil))
      (json-read))))

(defun agent-lsp--snippet (pos)
  "A short printable piece of the buffer at POS for an error message."
  (replace-regexp-in-string "[\r\n\t]+" " "
                            (buffer-substring-no-properties pos (min (point-max) (+ pos 60)))))

(defun agent-lsp--reader-done (proc)
  "Forget what is left of PROC's output."
  (let ((buf (process-get proc 'agent-lsp-frames)))
    (when (buffer-live-p buf) (kill-buffer buf))))

(provide 'agent-lsp-reader)
;;; agent-lsp-reader.el ends here
