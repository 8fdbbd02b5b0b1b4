;;; agent-lsp-connection.el --- One project's connection to agent-lsp  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The package's own JSON-RPC connection to `agent-lsp --stdio', one per project root, built
;; on Emacs's jsonrpc.el (not on eglot's connection, so the user's own language server keeps
;; its place in every buffer).  This file is the transport: it starts and stops servers,
;; logs, sends requests, and hands the server's requests and notifications to the handlers
;; of agent-lsp-handlers.el, holding back the reply of a request answered later.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)
(require 'agent-lsp-handlers)
(require 'agent-lsp-reader)
(require 'agent-lsp-uris)

(defvar agent-lsp-server-command)
(defvar agent-lsp-initialization-options)
(defvar agent-lsp-log-events)
(defvar agent-lsp-project-root-function)
(defvar agent-lsp-language-methods)

(defconst agent-lsp--events-buffer-name "*agent-lsp events*"
  "Buffer holding the servers' stderr, and their JSON-RPC traffic when logged.")

;;; The connection

(defclass agent-lsp--connection (jsonrpc-process-connection)
  ((root :initarg :root :reader agent-lsp--root
         :documentation "The project root this server serves, a directory name.")
   (capabilities :initform nil :accessor agent-lsp--server-capabilities
                 :documentation "What the server answered to initialize.")
   (ready :initform nil :accessor agent-lsp--ready
          :documentation "Non-nil once initialize was answered.")
   (waiting :initform nil :accessor agent-lsp--waiting
            :documentation "Functions to call with the connection once it is ready.")
   (replies :initform (make-hash-table :test #'equal) :accessor agent-lsp--replies
            :documentation "Server request id -> its pending `agent-lsp--pending'.")
   (progress :initform (make-hash-table :test #'equal) :accessor agent-lsp--progress
             :documentation "$/progress token -> title.")
   (exit-reason :initform nil :accessor agent-lsp--exit-reason
                :documentation "Why the package stopped the server, if it did."))
  :documentation "A connection to the agent-lsp server of one project.")

(defvar agent-lsp--connections (make-hash-table :test #'equal)
  "Project root -> its live `agent-lsp--connection'.")

(defvar agent-lsp-connection-ready-functions nil
  "Abnormal hook run with each connection once it is initialized.")

(defvar agent-lsp-connection-shutdown-functions nil
  "Abnormal hook run with a connection and a message when its server stopped.")

(defun agent-lsp--project-name (root)
  "The name shown for the project at ROOT."
  (file-name-nondirectory (directory-file-name root)))

(defun agent-lsp-project-root (&optional dir)
  "The root of the project holding DIR (default: `default-directory').
Uses project.el; outside a project, DIR itself."
  (let* ((dir (or dir default-directory))
         (project (and (fboundp 'project-current) (project-current nil dir)))
         (root (cond ((null project) dir)
                     ((fboundp 'project-root) (project-root project))
                     (t (car (with-no-warnings (project-roots project)))))))
    (file-name-as-directory (expand-file-name root))))

(defun agent-lsp--root-of (&optional dir)
  "The project root for DIR through `agent-lsp-project-root-function'."
  (file-name-as-directory
   (expand-file-name (funcall (or agent-lsp-project-root-function #'agent-lsp-project-root)
                              (or dir default-directory)))))

(defun agent-lsp--live (root)
  "The live connection of ROOT, or nil."
  (let ((conn (gethash root agent-lsp--connections)))
    (and conn (jsonrpc-running-p conn) conn)))

(defun agent-lsp--all-connections ()
  "Every live connection."
  (cl-loop for conn being the hash-values of agent-lsp--connections
           when (jsonrpc-running-p conn) collect conn))

;;; Logging

(defun agent-lsp--events-buffer ()
  "The shared events buffer, created on demand."
  (or (get-buffer agent-lsp--events-buffer-name)
      (with-current-buffer (get-buffer-create agent-lsp--events-buffer-name)
        (buffer-disable-undo)
        (setq buffer-read-only t)
        (current-buffer))))

(defun agent-lsp--log (format-string &rest args)
  "Append a line, FORMAT-STRING formatted with ARGS, to the events buffer."
  (with-current-buffer (agent-lsp--events-buffer)
    (let ((inhibit-read-only t))
      (save-excursion
        (goto-char (point-max))
        (insert (format-time-string "[%H:%M:%S] ") (apply #'format format-string args) "\n")))))

(defun agent-lsp--error-text (error)
  "The message of a JSON-RPC ERROR plist, or a description of what ERROR is."
  (cond ((and (listp error) (plist-get error :message)) (plist-get error :message))
        ((stringp error) error)
        (t (format "%S" error))))

;;; Replies given later

;; jsonrpc answers a request with whatever its dispatcher returns, at once.  A dispatcher that
;; returns an `agent-lsp--pending' gets its reply suppressed here and sent later instead, with
;; the id that only this send knows.
(cl-defmethod jsonrpc-connection-send :around ((conn agent-lsp--connection) &rest args)
  "Hold back the reply to a request whose answer comes later.
CONN is the connection, ARGS the message."
  (let ((result (plist-get args :result)))
    (if (agent-lsp--pending-p result)
        (agent-lsp--schedule conn (plist-get args :id) result)
      (cl-call-next-method))))

(defun agent-lsp--malformed (conn what)
  "Stop CONN's server, which sent WHAT, a malformed message."
  (setf (agent-lsp--exit-reason conn)
        (format "the server sent a malformed message (%s)" (string-trim what)))
  (agent-lsp--log "%s" (agent-lsp--exit-reason conn))
  (delete-process (jsonrpc--process conn)))

;;; Starting and stopping

(defun agent-lsp--capabilities ()
  "The client capabilities the package declares."
  (list :workspace (list :applyEdit t
                         :workspaceEdit (list :documentChanges t
                                              :resourceOperations ["create" "rename" "delete"])
                         :workspaceFolders t)
        :textDocument (list :synchronization (list :dynamicRegistration :json-false
                                                   :didSave :json-false))
        :window (list :workDoneProgress t
                      :showMessage (list :messageActionItem
                                         (list :additionalPropertiesSupport :json-false)))
        :experimental (list :agent (list :requestPermission t
                                         :askUser t
                                         :saveDocuments t
                                         :languageService agent-lsp-language-methods))))

(defun agent-lsp--program ()
  "The server program, or nil when it cannot be found."
  (let ((program (car agent-lsp-server-command)))
    (and (stringp program)
         (if (file-name-absolute-p program)
             (and (file-executable-p program) program)
           (executable-find program)))))

(defun agent-lsp--make-process (root name)
  "Start the server process for ROOT, its connection being named NAME."
  (let ((default-directory root))
    (make-process :name name
                  :command agent-lsp-server-command
                  :connection-type 'pipe
                  :coding 'utf-8-emacs-unix
                  :noquery t
                  ;; jsonrpc.el takes the buffer of this name as the stderr buffer.
                  :stderr (get-buffer-create (format "*%s stderr*" name))
                  :file-handler t)))

(defun agent-lsp--events-initargs ()
  "The initargs that turn jsonrpc.el's traffic log on or off."
  (let ((size (if agent-lsp-log-events nil 0)))
    (if (fboundp 'jsonrpc-convert-to-endpoint) ; jsonrpc 1.0.24 (Emacs 30) replaced the initarg
        (list :events-buffer-config (list :size size :format 'full))
      (list :events-buffer-scrollback-size size))))

(defun agent-lsp--start (root)
  "Start the server of ROOT and return its connection (not yet ready).
Signals a `user-error' that says why when it cannot start."
  (unless (agent-lsp--program)
    (user-error "Cannot start the agent-lsp server: %S not found (customize `agent-lsp-server-command')"
                (car agent-lsp-server-command)))
  (let* ((name (format "agent-lsp[%s]" (abbreviate-file-name (directory-file-name root))))
         (conn (condition-case err
                   (apply #'make-instance 'agent-lsp--connection
                          :name name :root root
                          :process (lambda () (agent-lsp--make-process root name))
                          :request-dispatcher #'agent-lsp--dispatch-request
                          :notification-dispatcher #'agent-lsp--dispatch-notification
                          :on-shutdown #'agent-lsp--on-shutdown
                          (agent-lsp--events-initargs))
                 (error (user-error "Cannot start the agent-lsp server: %s"
                                    (error-message-string err))))))
    ;; One events buffer for every project (jsonrpc.el would name one per connection).
    (setf (jsonrpc--events-buffer conn) (agent-lsp--events-buffer))
    (set-process-filter (jsonrpc--process conn) #'agent-lsp--process-filter)
    (puthash root conn agent-lsp--connections)
    (agent-lsp--log "starting %s in %s" (string-join agent-lsp-server-command " ") root)
    (jsonrpc-async-request
     conn 'initialize
     (list :processId (emacs-pid)
           :clientInfo (list :name "Emacs agent-lsp" :version emacs-version)
           :rootUri (agent-lsp--path-to-uri root)
           :rootPath (directory-file-name root)
           :workspaceFolders (vector (list :uri (agent-lsp--path-to-uri root)
                                           :name (agent-lsp--project-name root)))
           :capabilities (agent-lsp--capabilities)
           :initializationOptions (or agent-lsp-initialization-options (make-hash-table)))
     :timeout 60
     :success-fn (lambda (result) (agent-lsp--initialized conn result))
     :error-fn (lambda (error)
                 (agent-lsp--fail-start conn (format "initialize failed: %s" (agent-lsp--error-text error))))
     :timeout-fn (lambda () (agent-lsp--fail-start conn "the server did not answer initialize within 60 s")))
    conn))

(defun agent-lsp--initialized (conn result)
  "CONN answered initialize with RESULT: finish the handshake, run what waited."
  (setf (agent-lsp--server-capabilities conn) (plist-get result :capabilities))
  (jsonrpc-notify conn 'initialized (make-hash-table))
  (setf (agent-lsp--ready conn) t)
  (run-hook-with-args 'agent-lsp-connection-ready-functions conn)
  (let ((waiting (nreverse (agent-lsp--waiting conn))))
    (setf (agent-lsp--waiting conn) nil)
    (dolist (fn waiting)
      (condition-case err
          (funcall (car fn) conn)
        (error (message "agent-lsp: %s" (error-message-string err)))))))

(defun agent-lsp--fail-start (conn why)
  "Stop CONN, which could not start because of WHY."
  (when (jsonrpc-running-p conn)
    (setf (agent-lsp--exit-reason conn) why)
    (delete-process (jsonrpc--process conn))))

(defun agent-lsp--with-connection (root fn &optional on-failure)
  "Call FN with ROOT's ready connection, starting the server when needed.
When the server cannot start, call ON-FAILURE with the reason, or show it."
  (condition-case err
      (let ((conn (or (agent-lsp--live root) (agent-lsp--start root))))
        (if (agent-lsp--ready conn)
            (funcall fn conn)
          (push (list fn on-failure) (agent-lsp--waiting conn))))
    (user-error
     (let ((why (error-message-string err)))
       (if on-failure (funcall on-failure why) (message "agent-lsp: %s" why))))))

(defun agent-lsp--stderr-tail (conn)
  "The last error line CONN's server wrote to stderr, or nil."
  (let ((buf (ignore-errors (jsonrpc-stderr-buffer conn))))
    (when (buffer-live-p buf)
      (with-current-buffer buf
        (save-excursion
          (goto-char (point-max))
          (when (re-search-backward "\\(?:ERROR\\|[Ee]rror\\|FATAL\\|[Ff]atal\\).*" nil t)
            (string-trim (match-string 0))))))))

(defun agent-lsp--on-shutdown (conn)
  "Forget CONN, whose server stopped, and tell the user why.
Every request of the server still waiting for an answer is refused."
  (when (eq (gethash (agent-lsp--root conn) agent-lsp--connections) conn)
    (remhash (agent-lsp--root conn) agent-lsp--connections))
  (let* ((proc (jsonrpc--process conn))
         (code (process-exit-status proc))
         (deliberate (eq (agent-lsp--exit-reason conn) 'shutdown))
         (why (cond (deliberate "the server was shut down")
                    ((agent-lsp--exit-reason conn))
                    (t (let ((tail (agent-lsp--stderr-tail conn)))
                         (format "the server stopped (%s %s%s)"
                                 (if (eq (process-status proc) 'signal) "signal" "exit code")
                                 code (if tail (concat ": " tail) ""))))))
         (text (if deliberate why (concat why "; the next command starts a new one"))))
    (agent-lsp--refuse-all conn)
    (dolist (fn (agent-lsp--waiting conn))
      (when (cadr fn) (funcall (cadr fn) text)))
    (setf (agent-lsp--waiting conn) nil)
    (agent-lsp--log "%s: %s" (agent-lsp--root conn) text)
    (run-hook-with-args 'agent-lsp-connection-shutdown-functions conn text)
    (agent-lsp--reader-done proc)
    (unless deliberate (message "agent-lsp: %s" text))))

(defun agent-lsp--shutdown (conn)
  "Ask CONN's server to shut down and exit; kill it if it does not."
  (setf (agent-lsp--exit-reason conn) 'shutdown)
  (let ((proc (jsonrpc--process conn)))
    (ignore-errors
      (jsonrpc-async-request conn 'shutdown nil
                             :timeout 3
                             :success-fn (lambda (_) (ignore-errors (jsonrpc-notify conn 'exit nil)))
                             :error-fn #'ignore
                             :timeout-fn #'ignore))
    (run-at-time 4 nil (lambda () (when (process-live-p proc) (delete-process proc))))))

;;; Requests

(cl-defun agent-lsp--request (conn method params &key success error (timeout 30))
  "Send METHOD with PARAMS on CONN; call SUCCESS with the result.
ERROR gets the error message; without it the message is shown.  A
dead server is reported once by the shutdown handler, not here.
TIMEOUT is in seconds, nil for none."
  (jsonrpc-async-request
   conn method params
   :timeout timeout
   :success-fn (lambda (result) (when success (funcall success result)))
   :error-fn (lambda (err)
               (let ((died (equal (plist-get err :code) -1)))
                 (cond (error (funcall error (agent-lsp--error-text err) died))
                       ((not died) (message "agent-lsp: %s failed: %s" method
                                            (agent-lsp--error-text err))))))
   :timeout-fn (lambda ()
                 (let ((why (format "%s: no answer within %s s" method timeout)))
                   (if error (funcall error why nil) (message "agent-lsp: %s" why))))))

(provide 'agent-lsp-connection)
;;; agent-lsp-connection.el ends here
