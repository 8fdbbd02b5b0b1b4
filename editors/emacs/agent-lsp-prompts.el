;;; agent-lsp-prompts.el --- Approvals, questions and messages from the server  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `agent/requestPermission': a change to files opens the review (agent-lsp-review.el);
;; anything else (a command, a path outside the project) is asked with
;; `read-multiple-choice', showing the command and its folder, offering exactly the options
;; the server sent.  `agent/askUser' uses `completing-read'.  Every prompt runs from a
;; timer with quitting allowed: C-g answers No at once.  Also here: `$/progress' in the echo
;; area and `window/showMessage' as messages.

;;; Code:

(require 'cl-lib)
(require 'rmc)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)

(declare-function agent-lsp-review-start "agent-lsp-review" (conn params reply pending))

;;; Permissions

(defconst agent-lsp--option-keys
  '(("allow_once" ?y "yes" "allow it this time")
    ("allow_always" ?a "always" "allow it, and don't ask again")
    ("reject" ?n "no" "don't allow it"))
  "How each permission option is offered: option id, key, name, description.")

(defun agent-lsp--offered-options (params)
  "The option ids of the permission request PARAMS, in the server's order."
  (let ((ids (delq nil (mapcar (lambda (o) (plist-get o :optionId))
                               (append (plist-get params :options) nil)))))
    (or ids '("allow_once" "allow_always" "reject"))))

(defun agent-lsp--permission-prompt (root params)
  "The question to ask for the permission request PARAMS in the project ROOT."
  (let* ((call (plist-get params :toolCall))
         (input (plist-get call :input))
         (command (and (listp input) (plist-get input :command))))
    (if (stringp command)
        (let ((folder (expand-file-name (or (plist-get input :cwd) ".") root)))
          (format "agent-lsp wants to run, in %s:\n  %s\nAllow? "
                  (abbreviate-file-name (directory-file-name folder)) command))
      (format "agent-lsp wants to: %s.  Allow? "
              (replace-regexp-in-string
               "\n" " " (or (plist-get params :summary) (plist-get call :title)
                            (plist-get call :name) "run a tool"))))))

(defun agent-lsp-ask-permission (root params)
  "Ask the permission request PARAMS in the project ROOT.
Return the id of the option chosen."
  (let* ((ids (agent-lsp--offered-options params))
         (choices (cl-loop for (id key name desc) in agent-lsp--option-keys
                           when (member id ids) collect (list key name desc)))
         (key (car (read-multiple-choice (agent-lsp--permission-prompt root params) choices))))
    (car (cl-find key agent-lsp--option-keys :key #'cadr))))

(defun agent-lsp--handle-permission (conn params)
  "Answer agent/requestPermission with PARAMS on CONN: review files, else ask."
  (let ((pending nil))
    (setq pending
          (agent-lsp--answer-later
           (lambda (reply)
             (if (and (> (length (plist-get params :files)) 0) (fboundp 'agent-lsp-review-start))
                 (agent-lsp-review-start conn params reply pending)
               (funcall reply (list :optionId (agent-lsp-ask-permission (agent-lsp--root conn) params)))))
           (list :optionId "reject")))
    pending))

;;; Questions

(defun agent-lsp-ask-question (params)
  "Ask the agent/askUser PARAMS; return the answer, or nil."
  (let* ((question (concat "agent-lsp asks: " (or (plist-get params :question) "") " "))
         (choices (append (plist-get params :choices) nil))
         (free (not (eq (plist-get params :allowFreeText) :json-false)))
         (enable-recursive-minibuffers t))
    (if (null choices)
        (read-string question)
      ;; Free text: any input is taken as the answer (require-match only without it).
      (completing-read question choices nil (not free)))))

(defun agent-lsp--handle-ask-user (_conn params)
  "Answer agent/askUser with PARAMS."
  (agent-lsp--answer-later
   (lambda (reply)
     (let ((answer (agent-lsp-ask-question params)))
       (funcall reply (and answer (not (string-empty-p answer)) (list :answer answer)))))
   nil))

(defun agent-lsp--handle-message-request (_conn params)
  "Answer window/showMessageRequest with PARAMS with the action chosen."
  (agent-lsp--answer-later
   (lambda (reply)
     (let* ((actions (append (plist-get params :actions) nil))
            (titles (mapcar (lambda (a) (plist-get a :title)) actions))
            (title (and titles
                        (completing-read (concat "agent-lsp: " (plist-get params :message) " ")
                                         titles nil t))))
       (funcall reply (and title (list :title title)))))
   nil))

;;; Messages and progress

(defun agent-lsp--handle-show-message (_conn params)
  "Show the window/showMessage PARAMS."
  (let ((text (or (plist-get params :message) "")))
    (agent-lsp--log "showMessage: %s" text)
    (unless (eql (plist-get params :type) 4)
      (message "agent-lsp: %s" text))))

(defun agent-lsp--handle-log-message (_conn params)
  "Log the window/logMessage PARAMS."
  (agent-lsp--log "%s" (or (plist-get params :message) "")))

(defun agent-lsp--handle-progress (conn params)
  "Show the $/progress PARAMS of CONN in the echo area."
  (let* ((token (plist-get params :token))
         (value (plist-get params :value))
         (kind (plist-get value :kind))
         (titles (agent-lsp--progress conn))
         (title (or (plist-get value :title) (gethash token titles) "working"))
         (text (plist-get value :message))
         (message-log-max nil))
    (pcase kind
      ("begin" (puthash token title titles))
      ("end" (remhash token titles)))
    (unless (active-minibuffer-window)
      (message "agent-lsp: %s%s%s" title (if text ": " "") (or text (if (equal kind "end") " (done)" ""))))))

(agent-lsp--on-request 'agent/requestPermission #'agent-lsp--handle-permission)
(agent-lsp--on-request 'agent/askUser #'agent-lsp--handle-ask-user)
(agent-lsp--on-request 'window/showMessageRequest #'agent-lsp--handle-message-request)
(agent-lsp--on-request 'window/workDoneProgress/create #'ignore)
(agent-lsp--on-request 'client/registerCapability #'ignore)
(agent-lsp--on-notification 'window/showMessage #'agent-lsp--handle-show-message)
(agent-lsp--on-notification 'window/logMessage #'agent-lsp--handle-log-message)
(agent-lsp--on-notification '$/progress #'agent-lsp--handle-progress)

(provide 'agent-lsp-prompts)
;;; agent-lsp-prompts.el ends here
