;;; agent-lsp-uris.el --- File names and file URIs for agent-lsp  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The server knows documents by `file://' URIs; Emacs by file names.  These two functions
;; convert between them, percent-encoding everything but the unreserved characters and `/'.

;;; Code:

(defun agent-lsp--path-to-uri (path)
  "The file URI of PATH."
  (concat "file://"
          (url-hexify-string (expand-file-name path)
                             (eval-when-compile
                               (let ((chars (make-vector 128 nil)))
                                 (dolist (c (string-to-list
                                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/"))
                                   (aset chars c t))
                                 chars)))))

(defun agent-lsp--uri-to-path (uri)
  "The file name of the file URI."
  (let ((path (if (string-prefix-p "file://" uri) (substring uri 7) uri)))
    (decode-coding-string (url-unhex-string path) 'utf-8)))

(declare-function url-hexify-string "url-util" (string &optional allowed-chars))
(declare-function url-unhex-string "url-util" (str &optional allow-newlines))
(autoload 'url-hexify-string "url-util")
(autoload 'url-unhex-string "url-util")

(provide 'agent-lsp-uris)
;;; agent-lsp-uris.el ends here
