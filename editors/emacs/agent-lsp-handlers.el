;;; agent-lsp-handlers.el --- The server's requests and notifications, each to its handler  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The other files register a handler per server method here; the connection
;; (agent-lsp-connection.el) hands every request and notification to `agent-lsp--dispatch-request'
;; and `agent-lsp--dispatch-notification'.  Every server-to-client request is answered exactly
;; once: a handler that cannot answer at once returns an `agent-lsp--pending', whose start
;; function runs from a timer and never from the process filter (a prompt shown inside a filter
;; runs with quitting inhibited, and an error or C-g there would lose the reply and leave the
;; session waiting).  A request the server withdraws, or that is still open when the server
;; stops, is answered with its refusal.  Request ids are the server's, opaque here.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)

(declare-function agent-lsp--log "agent-lsp-connection" (format-string &rest args))
(declare-function agent-lsp--replies "agent-lsp-connection" (conn))

;;; Handlers

(defvar agent-lsp--request-handlers nil
  "Alist of server request method symbol -> handler.
A handler is called with the connection and the params.  It returns
the result, or an `agent-lsp--pending' to answer later.")

(defvar agent-lsp--notification-handlers nil
  "Alist of server notification method symbol -> handler (CONN PARAMS).")

(defun agent-lsp--on-request (method handler)
  "Make HANDLER answer the server's METHOD requests."
  (setf (alist-get method agent-lsp--request-handlers) handler))

(defun agent-lsp--on-notification (method handler)
  "Make HANDLER receive the server's METHOD notifications."
  (setf (alist-get method agent-lsp--notification-handlers) handler))

(cl-defstruct (agent-lsp--pending (:constructor agent-lsp--answer-later (start refusal &optional asks)))
  "A reply given later.
START is called from a timer with a function that sends the answer
\(its optional second argument: an error plist to send instead);
REFUSAL is the answer that means No, sent when START quits, when the
server withdraws the request, or when the prompt is abandoned.  When
START fails, REFUSAL is sent too, unless ASKS: the request asks the
user, who was never asked, so the failure goes back as an error the
server reports as one (never as the user's No)."
  start refusal asks (answered nil) (cancel nil) id)

(defun agent-lsp--dispatch-request (conn method params)
  "Answer the server's METHOD request with PARAMS on CONN."
  (let ((handler (alist-get method agent-lsp--request-handlers)))
    (unless handler
      (jsonrpc-error :code -32601 :message (format "agent-lsp.el does not handle %s" method)))
    (funcall handler conn params)))

(defun agent-lsp--dispatch-notification (conn method params)
  "Pass the server's METHOD notification with PARAMS on CONN to its handler."
  (let ((handler (alist-get method agent-lsp--notification-handlers)))
    (when handler
      (condition-case err
          (funcall handler conn params)
        (error (agent-lsp--log "error handling %s: %s" method (error-message-string err)))))))

(defun agent-lsp--schedule (conn id pending)
  "Start PENDING, the answer to request ID on CONN, from a timer."
  (setf (agent-lsp--pending-id pending) id)
  (puthash id pending (agent-lsp--replies conn))
  (run-at-time 0 nil #'agent-lsp--run-pending conn pending))

(defun agent-lsp--reply (conn pending result &optional error)
  "Send RESULT as the answer to PENDING on CONN, once.
With ERROR, a JSON-RPC error plist, send that instead."
  (unless (agent-lsp--pending-answered pending)
    (setf (agent-lsp--pending-answered pending) t)
    (remhash (agent-lsp--pending-id pending) (agent-lsp--replies conn))
    (when (jsonrpc-running-p conn)
      (apply #'jsonrpc-connection-send conn :id (agent-lsp--pending-id pending)
             (if error (list :error error) (list :result result))))))

(defun agent-lsp--refuse (conn pending)
  "Answer PENDING on CONN with its refusal and run its clean-up."
  (let ((cancel (agent-lsp--pending-cancel pending)))
    (agent-lsp--reply conn pending (agent-lsp--pending-refusal pending))
    (when cancel
      (setf (agent-lsp--pending-cancel pending) nil)
      (funcall cancel))))

(defun agent-lsp--run-pending (conn pending)
  "Run PENDING's start function on CONN; a quit or an error answers No."
  (condition-case err
      ;; Timers run with quitting inhibited: let C-g in a prompt quit it.
      (let ((inhibit-quit nil))
        (funcall (agent-lsp--pending-start pending)
                 (lambda (result &optional error) (agent-lsp--reply conn pending result error))))
    (quit (agent-lsp--refuse conn pending))
    (error (agent-lsp--pending-failed conn pending (error-message-string err)))))

(defun agent-lsp--pending-failed (conn pending why)
  "PENDING on CONN could not be answered (WHY): say so, and answer it."
  (message "agent-lsp: %s" why)
  (agent-lsp--log "answering request %s failed: %s" (agent-lsp--pending-id pending) why)
  (if (not (agent-lsp--pending-asks pending))
      (agent-lsp--refuse conn pending)
    (agent-lsp--reply conn pending nil (list :code -32603 :message (concat "Emacs could not ask the user: " why)))
    (let ((cancel (agent-lsp--pending-cancel pending)))
      (setf (agent-lsp--pending-cancel pending) nil)
      (when cancel (ignore-errors (funcall cancel))))))

(defun agent-lsp--on-cleanup (pending function)
  "Call FUNCTION when PENDING is refused or withdrawn (closes its user interface)."
  (setf (agent-lsp--pending-cancel pending) function))

;;; Withdrawn and orphaned requests

(defun agent-lsp--refuse-all (conn)
  "Refuse every request of CONN still waiting for an answer (its server stopped)."
  (maphash (lambda (_id pending) (agent-lsp--refuse conn pending)) (agent-lsp--replies conn)))

(agent-lsp--on-notification
 '$/cancelRequest
 (lambda (conn params)
   (let ((pending (gethash (plist-get params :id) (agent-lsp--replies conn))))
     (when pending (agent-lsp--refuse conn pending)))))

(provide 'agent-lsp-handlers)
;;; agent-lsp-handlers.el ends here
