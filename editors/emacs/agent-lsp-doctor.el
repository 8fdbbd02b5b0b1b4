;;; agent-lsp-doctor.el --- Check the set-up: Emacs, the server, its own doctor  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `agent-lsp-doctor' writes a report into *agent-lsp doctor*: the Emacs version, whether
;; the server command runs, the project's connection, and the server's own `doctor' report
;; (config files, provider credentials, tools), which arrives asynchronously.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-connection)

(defvar agent-lsp-server-command)
(defvar agent-lsp-initialization-options)

(defun agent-lsp--doctor-command ()
  "The server command without --stdio, followed by \"doctor\"."
  (append (remove "--stdio" agent-lsp-server-command) (list "doctor")))

(defun agent-lsp--doctor-line (buf ok text)
  "Write TEXT into BUF, marked OK (t), a problem (nil) or a note (`note')."
  (with-current-buffer buf
    (let ((inhibit-read-only t))
      (goto-char (point-max))
      (insert (pcase ok ('note "  ") ('nil (propertize "✗ " 'face 'error)) (_ (propertize "✓ " 'face 'success)))
              text "\n"))))

;;;###autoload
(defun agent-lsp-doctor ()
  "Report on the set-up of agent-lsp for the current project."
  (interactive)
  (let* ((root (agent-lsp--root-of (if buffer-file-name (file-name-directory buffer-file-name)
                                     default-directory)))
         (buf (get-buffer-create "*agent-lsp doctor*"))
         (program (agent-lsp--program))
         (conn (agent-lsp--live root)))
    (with-current-buffer buf
      (let ((inhibit-read-only t)) (erase-buffer))
      (special-mode)
      (setq default-directory root))
    (agent-lsp--doctor-line buf (>= emacs-major-version 28) (format "Emacs %s" emacs-version))
    (agent-lsp--doctor-line buf 'note (format "Project: %s" root))
    (agent-lsp--doctor-line buf program
                            (if program (format "Server command: %s (%s)"
                                                (string-join agent-lsp-server-command " ") program)
                              (format "Server command: %S not found; install it from your agent-lsp checkout (npm install, then npm install -g .) or customize `agent-lsp-server-command'"
                                      (car agent-lsp-server-command))))
    (agent-lsp--doctor-line buf 'note (if conn (format "Connection: running (%s)" (jsonrpc-name conn))
                                        "Connection: none yet (a command starts it)"))
    (agent-lsp--doctor-line buf 'note (if agent-lsp-initialization-options
                                          (format "Initialization options: %s"
                                                  (string-join (cl-loop for (k _v) on agent-lsp-initialization-options by #'cddr
                                                                        collect (format "%s" k))
                                                               ", "))
                                        "Initialization options: none (the server reads its config files)"))
    (display-buffer buf)
    (when program
      (agent-lsp--doctor-line buf 'note (format "Running %s ..." (string-join (agent-lsp--doctor-command) " ")))
      (let ((default-directory root))
        (make-process
         :name "agent-lsp doctor" :command (agent-lsp--doctor-command) :noquery t
         :connection-type 'pipe
         :filter (lambda (_proc text)
                   (when (buffer-live-p buf)
                     (with-current-buffer buf
                       (let ((inhibit-read-only t))
                         (save-excursion (goto-char (point-max)) (insert text))))))
         :sentinel (lambda (proc _event)
                     (unless (process-live-p proc)
                       (when (buffer-live-p buf)
                         (agent-lsp--doctor-line
                          buf (zerop (process-exit-status proc))
                          (if (zerop (process-exit-status proc)) "The server's doctor found nothing wrong"
                            (format "The server's doctor exited with code %d (see above)"
                                    (process-exit-status proc))))))))))
    buf))

(provide 'agent-lsp-doctor)
;;; agent-lsp-doctor.el ends here
