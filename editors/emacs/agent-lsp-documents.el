;;; agent-lsp-documents.el --- Keep the server's view of the project's buffers true  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Text synchronisation, done by the package itself so it works beside eglot or lsp-mode in
;; the same buffer: `didOpen' for every buffer visiting a file under a running server's
;; project root (when the server starts and when a file is visited later), incremental
;; `didChange' from the change hooks, `didClose' when the buffer is killed.  Changes are
;; sent as soon as the command that made them ends (a zero-delay timer), and at once before
;; any request that depends on them: the agent reads the buffers, unsaved text included.
;; Positions are LSP positions: lines, and UTF-16 code units within a line.

;;; Code:

(require 'cl-lib)
(require 'agent-lsp-connection)

(defvar-local agent-lsp--conn nil
  "The connection that has this buffer open.")
(defvar-local agent-lsp--uri nil
  "The URI this buffer was opened as.")
(defvar-local agent-lsp--version 0
  "Version of the buffer's text as the server knows it.")
(defvar-local agent-lsp--changes nil
  "Content changes not sent yet, newest first; `full' means send the whole text.")
(defvar-local agent-lsp--before nil
  "The region of the change in progress: (BEG END LSP-START LSP-END).")
(defvar-local agent-lsp--flush-timer nil
  "Timer that sends the pending changes.")

(declare-function agent-lsp--lighter "agent-lsp-chat" ())

;;; Positions

(defun agent-lsp--utf16-length (beg end)
  "The number of UTF-16 code units between BEG and END."
  (let ((n (- end beg)))
    ;; A character beyond the Basic Multilingual Plane is two code units.
    (save-excursion
      (goto-char beg)
      (while (re-search-forward "[\U00010000-\U0010FFFF]" end t)
        (setq n (1+ n))))
    n))

(defun agent-lsp--position (pos)
  "The LSP position of buffer position POS."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char pos)
      (list :line (1- (line-number-at-pos pos t))
            :character (agent-lsp--utf16-length (line-beginning-position) pos)))))

(defun agent-lsp--point (position)
  "The buffer position of the LSP POSITION, clamped to the buffer."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (if (> (forward-line (plist-get position :line)) 0)
          (point-max)
        (let ((units (plist-get position :character))
              (eol (line-end-position)))
          (while (and (> units 0) (< (point) eol))
            (setq units (- units (if (> (char-after) #xFFFF) 2 1)))
            (forward-char 1))
          (point))))))

(defun agent-lsp--range (beg end)
  "The LSP range from BEG to END."
  (list :start (agent-lsp--position beg) :end (agent-lsp--position end)))

;;; Which buffers

(defun agent-lsp--buffer-root-conn (&optional buffer)
  "Return the live connection whose project has BUFFER's file, or nil."
  (let ((file (buffer-file-name buffer)))
    (when (and file (not (file-remote-p file)))
      (let ((file (expand-file-name file)))
        (cl-find-if (lambda (conn) (string-prefix-p (agent-lsp--root conn) file))
                    (agent-lsp--all-connections))))))

(defun agent-lsp--language-id ()
  "The LSP language id of the current buffer, from its major mode."
  (let ((name (replace-regexp-in-string
               "\\(?:-ts\\)?-mode\\'" "" (symbol-name major-mode))))
    (pcase name
      ((or "js" "js2" "js3") "javascript")
      ("typescript" "typescript")
      ((or "c++" "cpp") "cpp")
      ("emacs-lisp" "elisp")
      ("sh" "shellscript")
      ("fundamental" "plaintext")
      ("text" "plaintext")
      (_ name))))

(defun agent-lsp--buffer-text ()
  "The whole text of the current buffer."
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

;;; Open, change, close

(define-minor-mode agent-lsp-managed-mode
  "Minor mode of buffers whose text agent-lsp's server follows.
The package turns it on in every buffer visiting a file of a
project whose server runs; its lighter shows the project's safety
mode and whether the agent is working."
  :lighter (:eval (agent-lsp--lighter))
  (if agent-lsp-managed-mode
      (progn
        (add-hook 'before-change-functions #'agent-lsp--before-change nil t)
        (add-hook 'after-change-functions #'agent-lsp--after-change nil t)
        (add-hook 'kill-buffer-hook #'agent-lsp--close nil t)
        (add-hook 'before-revert-hook #'agent-lsp--close nil t)
        (add-hook 'after-revert-hook #'agent-lsp--reopen nil t)
        (add-hook 'after-set-visited-file-name-hook #'agent-lsp--renamed nil t))
    (remove-hook 'before-change-functions #'agent-lsp--before-change t)
    (remove-hook 'after-change-functions #'agent-lsp--after-change t)
    (remove-hook 'kill-buffer-hook #'agent-lsp--close t)
    (remove-hook 'before-revert-hook #'agent-lsp--close t)
    (remove-hook 'after-revert-hook #'agent-lsp--reopen t)
    (remove-hook 'after-set-visited-file-name-hook #'agent-lsp--renamed t)
    (agent-lsp--close)))

(defun agent-lsp--open (conn)
  "Send didOpen for the current buffer on CONN."
  (unless (eq agent-lsp--conn conn)
    (when agent-lsp--conn (agent-lsp--close))
    (setq agent-lsp--conn conn
          agent-lsp--uri (agent-lsp--path-to-uri buffer-file-name)
          agent-lsp--version 0
          agent-lsp--changes nil
          agent-lsp--before nil)
    (unless agent-lsp-managed-mode (agent-lsp-managed-mode 1))
    (jsonrpc-notify conn 'textDocument/didOpen
                    (list :textDocument (list :uri agent-lsp--uri
                                              :languageId (agent-lsp--language-id)
                                              :version agent-lsp--version
                                              :text (agent-lsp--buffer-text))))))

(defun agent-lsp--close ()
  "Send didClose for the current buffer, if the server has it open."
  (let ((conn agent-lsp--conn) (uri agent-lsp--uri))
    (setq agent-lsp--conn nil agent-lsp--changes nil agent-lsp--before nil)
    (when (timerp agent-lsp--flush-timer) (cancel-timer agent-lsp--flush-timer))
    (setq agent-lsp--flush-timer nil)
    (when (and conn (jsonrpc-running-p conn))
      (jsonrpc-notify conn 'textDocument/didClose (list :textDocument (list :uri uri))))))

(defun agent-lsp--reopen ()
  "Open the current buffer again on its project's server (after a revert)."
  (let ((conn (agent-lsp--buffer-root-conn)))
    (if conn (agent-lsp--open conn) (agent-lsp-managed-mode -1))))

(defun agent-lsp--renamed ()
  "The buffer visits another file now: close the old URI, open the new one."
  (agent-lsp--close)
  (agent-lsp--reopen))

(defun agent-lsp--before-change (beg end)
  "Remember the LSP range of the change of BEG..END about to happen."
  (when agent-lsp--conn
    (setq agent-lsp--before
          (list beg end (agent-lsp--position beg) (agent-lsp--position end)))))

(defun agent-lsp--after-change (beg end old-length)
  "Queue the change of BEG..END that replaced OLD-LENGTH characters."
  (when agent-lsp--conn
    (let ((before agent-lsp--before))
      (setq agent-lsp--before nil)
      ;; Some primitives announce a larger region than they change: when the two hooks
      ;; disagree, send the whole text (as eglot does) rather than a wrong range.
      (if (and before (= (nth 0 before) beg) (= (- (nth 1 before) beg) old-length)
               (not (eq agent-lsp--changes 'full)))
          (push (list :range (list :start (nth 2 before) :end (nth 3 before))
                      :text (buffer-substring-no-properties beg end))
                agent-lsp--changes)
        (setq agent-lsp--changes 'full)))
    (unless agent-lsp--flush-timer
      (setq agent-lsp--flush-timer
            (run-at-time 0 nil #'agent-lsp--flush (current-buffer))))))

(defun agent-lsp--flush (&optional buffer)
  "Send what is pending in BUFFER (default: the current buffer) now."
  (with-current-buffer (or buffer (current-buffer))
    (when (timerp agent-lsp--flush-timer) (cancel-timer agent-lsp--flush-timer))
    (setq agent-lsp--flush-timer nil)
    (let ((changes agent-lsp--changes) (conn agent-lsp--conn))
      (when (and changes conn (jsonrpc-running-p conn))
        (setq agent-lsp--changes nil)
        (cl-incf agent-lsp--version)
        (jsonrpc-notify conn 'textDocument/didChange
                        (list :textDocument (list :uri agent-lsp--uri :version agent-lsp--version)
                              :contentChanges
                              (if (eq changes 'full)
                                  (vector (list :text (agent-lsp--buffer-text)))
                                (vconcat (reverse changes)))))))))

(defun agent-lsp--flush-all (conn)
  "Send now what is pending in every buffer open on CONN."
  (dolist (buf (buffer-list))
    (when (and (buffer-local-value 'agent-lsp--changes buf)
               (eq (buffer-local-value 'agent-lsp--conn buf) conn))
      (agent-lsp--flush buf))))

(defun agent-lsp--open-project-buffers (conn)
  "Open every buffer visiting a file under CONN's root."
  (dolist (buf (buffer-list))
    (with-current-buffer buf
      (when (eq (agent-lsp--buffer-root-conn) conn)
        (agent-lsp--open conn)))))

(defun agent-lsp--track-visited-file ()
  "Open a newly visited file on the server of its project, if any."
  (let ((conn (agent-lsp--buffer-root-conn)))
    (when conn (agent-lsp--open conn))))

(defun agent-lsp--forget-connection (conn _why)
  "CONN stopped: its buffers are no longer open anywhere."
  (dolist (buf (buffer-list))
    (when (eq (buffer-local-value 'agent-lsp--conn buf) conn)
      (with-current-buffer buf
        (setq agent-lsp--conn nil agent-lsp--changes nil)
        (agent-lsp-managed-mode -1)))))

(defun agent-lsp--buffer-for-uri (uri)
  "The live buffer visiting the file of URI, or nil."
  (find-buffer-visiting (agent-lsp--uri-to-path uri)))

(add-hook 'agent-lsp-connection-ready-functions #'agent-lsp--open-project-buffers)
(add-hook 'agent-lsp-connection-shutdown-functions #'agent-lsp--forget-connection)
(add-hook 'find-file-hook #'agent-lsp--track-visited-file)

(provide 'agent-lsp-documents)
;;; agent-lsp-documents.el ends here
