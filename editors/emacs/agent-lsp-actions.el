;;; agent-lsp-actions.el --- Prompts and code actions about a buffer's text  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `agent-lsp-ask' sends a prompt with the current file (and region) as context;
;; `agent-lsp-actions' offers the server's code actions for point or the region ("Ask agent
;; to fix: ..." for each flymake or flycheck diagnostic there, explain, refactor, write
;; tests) and runs the chosen one in the project's chat session, where it streams.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-connection)
(require 'agent-lsp-documents)
(require 'agent-lsp-chat)

(declare-function flymake-diagnostics "flymake" (&optional beg end))
(declare-function flymake-diagnostic-beg "flymake" (diag))
(declare-function flymake-diagnostic-end "flymake" (diag))
(declare-function flymake-diagnostic-text "flymake" (diag))
(declare-function flymake-diagnostic-type "flymake" (diag))
(declare-function flymake-diagnostic-backend "flymake" (diag))
(declare-function flycheck-overlay-errors-in "flycheck" (beg end))
(declare-function flycheck-error-message "flycheck" (err))
(declare-function flycheck-error-level "flycheck" (err))
(declare-function flycheck-error-checker "flycheck" (err))
(declare-function flycheck-error-region-for-mode "flycheck" (err mode))
(defvar flymake-mode)
(defvar flycheck-mode)

;;; Diagnostics

(defun agent-lsp--flymake-severity (type)
  "The LSP severity of the flymake diagnostic TYPE."
  (pcase type
    ((or :error 'eglot-error) 1)
    ((or :warning 'eglot-warning) 2)
    (_ (if (and (symbolp type) (string-match-p "error" (symbol-name type))) 1 3))))

(defun agent-lsp-diagnostics (beg end)
  "The flymake and flycheck diagnostics touching BEG..END, as LSP diagnostics."
  (let (out)
    (when (bound-and-true-p flymake-mode)
      (dolist (d (flymake-diagnostics beg end))
        (push (list :range (agent-lsp--range (flymake-diagnostic-beg d) (flymake-diagnostic-end d))
                    :message (flymake-diagnostic-text d)
                    :severity (agent-lsp--flymake-severity (flymake-diagnostic-type d))
                    :source (format "%s" (flymake-diagnostic-backend d)))
              out)))
    (when (and (bound-and-true-p flycheck-mode) (fboundp 'flycheck-overlay-errors-in))
      (dolist (e (flycheck-overlay-errors-in beg (max end (1+ beg))))
        (let ((region (or (flycheck-error-region-for-mode e 'symbols) (cons beg end))))
          (push (list :range (agent-lsp--range (car region) (cdr region))
                      :message (flycheck-error-message e)
                      :severity (pcase (flycheck-error-level e) ('error 1) ('warning 2) (_ 3))
                      :source (format "%s" (flycheck-error-checker e)))
                out))))
    (sort (nreverse out) (lambda (a b) (< (plist-get a :severity) (plist-get b :severity))))))

;;; Context

(defun agent-lsp--file-root ()
  "The project root of the current buffer; signal when it visits no file."
  (unless buffer-file-name (user-error "This buffer visits no file"))
  (agent-lsp--root-of (file-name-directory buffer-file-name)))

(defun agent-lsp--ensure-open (conn)
  "Make sure CONN has the current buffer open, with every change sent."
  (unless (eq agent-lsp--conn conn) (agent-lsp--open conn))
  (agent-lsp--flush))

(defun agent-lsp-ask-with-context (prompt &optional beg end)
  "Send PROMPT to the project's chat with the current file as context.
BEG..END, when given, is the part of the file asked about."
  (let* ((buf (current-buffer))
         (file-p (and buffer-file-name t))
         (root (if (derived-mode-p 'agent-lsp-chat-mode) agent-lsp--chat-root
                 (agent-lsp--root-of)))
         (context (and file-p
                       (append (list :uri (agent-lsp--path-to-uri buffer-file-name))
                               (and beg end (/= beg end) (list :range (agent-lsp--range beg end)))))))
    (agent-lsp-chat-show (agent-lsp-chat-buffer root))
    (if (not file-p)
        (agent-lsp-chat-prompt root prompt)
      ;; The server reads the context from the buffer: open it there first.
      (agent-lsp--with-connection
       root
       (lambda (conn)
         (with-current-buffer buf (agent-lsp--ensure-open conn))
         (agent-lsp-chat-prompt root prompt context))
       (lambda (why) (with-current-buffer (agent-lsp-chat-buffer root) (agent-lsp-render-error why)))))))

;;; Code actions

(defun agent-lsp--action-command (action)
  "The LSP Command of the code action ACTION (a CodeAction or a Command)."
  (let ((command (plist-get action :command)))
    (if (stringp command) action command)))

(defun agent-lsp--run-action (root command)
  "Run the code-action COMMAND in ROOT's chat session, streaming into the chat."
  (agent-lsp-chat-show (agent-lsp-chat-buffer root))
  (agent-lsp-chat-run-turn
   root (or (plist-get command :title) (plist-get command :command))
   'workspace/executeCommand
   (lambda (session)
     (let* ((args (append (plist-get command :arguments) nil))
            (first (copy-sequence (car args))))
       ;; Run in the chat's session, and answer when the turn ends.
       (setq first (plist-put (plist-put first :sessionId session) :wait t))
       (list :command (plist-get command :command)
             :arguments (vconcat (cons first (cdr args))))))))

(defun agent-lsp-code-actions (beg end choose)
  "Ask for the server's code actions on BEG..END; CHOOSE picks one of them.
CHOOSE gets the list of LSP commands and returns one, or nil."
  (let* ((root (agent-lsp--file-root))
         (buf (current-buffer)))
    (agent-lsp--with-connection
     root
     (lambda (conn)
       (with-current-buffer buf
         (agent-lsp--ensure-open conn)
         (let ((line-beg (save-excursion (goto-char beg) (line-beginning-position)))
               (line-end (save-excursion (goto-char end) (line-end-position))))
           (agent-lsp--request
            conn 'textDocument/codeAction
            (list :textDocument (list :uri agent-lsp--uri)
                  :range (agent-lsp--range beg end)
                  :context (list :diagnostics (vconcat (agent-lsp-diagnostics line-beg line-end))))
            :success (lambda (actions)
                       (let* ((commands (delq nil (mapcar #'agent-lsp--action-command
                                                          (append actions nil))))
                              (command (and commands (funcall choose commands))))
                         (cond ((null commands)
                                (message "agent-lsp: no agent actions here: select some text, or put point on a diagnostic"))
                               (command (agent-lsp--run-action root command)))))
            :error (lambda (why _died) (message "agent-lsp: code actions failed: %s" why)))))))))

(defun agent-lsp--choose-action (title)
  "A chooser for `agent-lsp-code-actions': the action TITLE names, or a prompt."
  (lambda (commands)
    (let* ((titles (mapcar (lambda (c) (plist-get c :title)) commands))
           (pick (or (and title (cl-find-if (lambda (s) (string-match-p (regexp-quote title) s)) titles))
                     (completing-read "Agent action: " titles nil t))))
      (cl-find pick commands :key (lambda (c) (plist-get c :title)) :test #'equal))))

(provide 'agent-lsp-actions)
;;; agent-lsp-actions.el ends here
