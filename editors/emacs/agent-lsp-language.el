;;; agent-lsp-language.el --- The agent asks your own language server  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Serves `agent/languageService': the agent asks for definitions, references, hover,
;; symbols and renames (computed by the server, applied by the agent as one reviewed change),
;; and eglot passes each request to the language server it runs for the file (never to
;; agent-lsp, whose connection is not eglot's).  Diagnostics come from flymake, so every
;; backend counts, not only eglot's.

;;; Code:

(require 'cl-lib)
(require 'flymake)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)
(require 'agent-lsp-documents)

(declare-function eglot-current-server "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function eglot-server-capable "eglot")
(declare-function eglot--server-capable "eglot")

(defconst agent-lsp-language-methods
  ["textDocument/definition" "textDocument/references" "textDocument/hover"
   "textDocument/documentSymbol" "workspace/symbol" "textDocument/prepareRename"
   "textDocument/rename" "textDocument/diagnostics"]
  "The `agent/languageService' methods the package serves.")

(defconst agent-lsp--language-timeout 4.5
  "Seconds the language server may take.
Under the agent's 5, so that the agent gets the reason.")

(defconst agent-lsp--language-providers
  '(("textDocument/definition" :definitionProvider)
    ("textDocument/references" :referencesProvider)
    ("textDocument/hover" :hoverProvider)
    ("textDocument/documentSymbol" :documentSymbolProvider)
    ("workspace/symbol" :workspaceSymbolProvider)
    ("textDocument/prepareRename" :renameProvider :prepareProvider)
    ("textDocument/rename" :renameProvider))
  "The server capability saying a server serves each method.")

(defun agent-lsp--eglot-server (buf)
  "The eglot server of BUF, or nil."
  (and buf (fboundp 'eglot-current-server)
       (with-current-buffer buf (eglot-current-server))))

(defun agent-lsp--eglot-buffer (uri)
  "The buffer of URI when eglot manages it; without URI, any buffer eglot manages."
  (if uri
      (let ((buf (agent-lsp--buffer-for-uri uri)))
        (and (agent-lsp--eglot-server buf) buf))
    (cl-find-if #'agent-lsp--eglot-server (buffer-list))))

(defun agent-lsp--eglot-serves (buf method)
  "Non-nil when the eglot server of BUF serves METHOD."
  (let ((path (cdr (assoc method agent-lsp--language-providers))))
    (with-current-buffer buf
      (if (fboundp 'eglot-server-capable)
          (apply #'eglot-server-capable path)
        (apply #'eglot--server-capable path)))))

(defun agent-lsp--language-fail (reply message)
  "Answer through REPLY with a JSON-RPC error saying MESSAGE."
  ;; -32603: the Neovim plugin answers the same; the agent passes MESSAGE to the model.
  (funcall reply nil (list :code -32603 :message message)))

(defun agent-lsp--ask-eglot (method params reply)
  "Ask the eglot server of PARAMS' document for METHOD; answer through REPLY."
  (let* ((uri (plist-get (plist-get params :textDocument) :uri))
         (buf (agent-lsp--eglot-buffer uri)))
    (cond
     ((not buf)
      (agent-lsp--language-fail
       reply (format "no language server (eglot) in Emacs serves %s%s" method
                     (if uri (format " for %s (is the file open?)" (agent-lsp--uri-to-path uri)) ""))))
     ((not (agent-lsp--eglot-serves buf method))
      (agent-lsp--language-fail reply (format "Emacs's language server does not serve %s" method)))
     (t
      (with-current-buffer buf
        ;; eglot sends didChange from an idle timer: the server must see the buffer as it is.
        (when (fboundp 'eglot--signal-textDocument/didChange)
          (eglot--signal-textDocument/didChange)))
      (jsonrpc-async-request
       (agent-lsp--eglot-server buf) (intern (concat ":" method)) params
       :success-fn (lambda (result) (funcall reply result))
       :error-fn (lambda (err) (agent-lsp--language-fail reply (agent-lsp--error-text err)))
       :timeout agent-lsp--language-timeout
       :timeout-fn (lambda ()
                     (agent-lsp--language-fail
                      reply (format "the language server did not answer within %s s"
                                    agent-lsp--language-timeout))))))))

(defun agent-lsp--flymake-severity (diag)
  "The LSP severity (1 error, 2 warning, 3 information) of flymake's DIAG."
  (let* ((type (flymake-diagnostic-type diag))
         ;; eglot's types (eglot-error...) name flymake's category on their plist.
         (category (or (and (symbolp type) (get type 'flymake-category)) type)))
    (pcase category
      ((or 'flymake-error :error) 1)
      ((or 'flymake-warning :warning) 2)
      (_ 3))))

(defun agent-lsp--lsp-diagnostic (buf diag)
  "Flymake's DIAG of BUF in LSP form, with its file's URI."
  (with-current-buffer buf
    (let* ((data (and (fboundp 'flymake-diagnostic-data) (flymake-diagnostic-data diag)))
           ;; eglot keeps the server's own diagnostic: its source and unprefixed message.
           (lsp (and (listp data) (cdr (assq 'eglot-lsp-diag data))))
           (source (plist-get lsp :source)))
      (append (list :uri (agent-lsp--path-to-uri (buffer-file-name buf))
                    :range (list :start (agent-lsp--position (flymake-diagnostic-beg diag))
                                 :end (agent-lsp--position (flymake-diagnostic-end diag)))
                    :severity (or (plist-get lsp :severity) (agent-lsp--flymake-severity diag))
                    :message (or (plist-get lsp :message) (flymake-diagnostic-text diag)))
              (and (stringp source) (list :source source))))))

(defun agent-lsp--buffer-diagnostics (buf)
  "Flymake's current diagnostics of BUF, in LSP form."
  (with-current-buffer buf
    (when (and (fboundp 'eglot--signal-textDocument/didChange) (agent-lsp--eglot-server buf))
      (eglot--signal-textDocument/didChange))
    (mapcar (lambda (d) (agent-lsp--lsp-diagnostic buf d)) (flymake-diagnostics))))

(defun agent-lsp--diagnostics (params)
  "The answer to textDocument/diagnostics with PARAMS: {diagnostics, servers?}."
  (let ((uri (plist-get params :uri)))
    (if uri
        (let ((buf (agent-lsp--buffer-for-uri uri)))
          (list :diagnostics (vconcat (and buf (agent-lsp--buffer-diagnostics buf)))
                :servers (if (agent-lsp--eglot-server buf) 1 0)))
      (list :diagnostics
            (vconcat (cl-loop for buf in (buffer-list)
                              when (and (buffer-file-name buf)
                                        (buffer-local-value 'flymake-mode buf))
                              append (agent-lsp--buffer-diagnostics buf)))))))

(defun agent-lsp--handle-language-service (_conn request)
  "Answer agent/languageService with REQUEST, {method, params}, from a timer."
  (let ((method (plist-get request :method))
        (params (plist-get request :params)))
    (unless (seq-contains-p agent-lsp-language-methods method)
      (jsonrpc-error :code -32602 :message (format "not a language-service method: %s" method)))
    (agent-lsp--answer-later
     (lambda (reply)
       (if (equal method "textDocument/diagnostics")
           (funcall reply (agent-lsp--diagnostics params))
         (agent-lsp--ask-eglot method params reply)))
     nil)))

(agent-lsp--on-request 'agent/languageService #'agent-lsp--handle-language-service)

(provide 'agent-lsp-language)
;;; agent-lsp-language.el ends here
