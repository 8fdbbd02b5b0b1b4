;;; agent-lsp-prompts.el --- Approvals, questions and messages from the server  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `agent/requestPermission': a change to files opens the review (agent-lsp-review.el);
;; anything else (a command, a path outside the project) is asked in the chat
;; (agent-lsp-waiting.el) with all the request says: the command in full, its folder, the
;; files saved first.  The answers are exactly the options the server sent, and "No, and tell
;; the agent why".  `agent/askUser' and `window/showMessageRequest' are asked there too, one
;; button per choice.  Also here: `$/progress' in the echo area and `window/showMessage' as
;; messages.

;;; Code:

(require 'cl-lib)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)
(require 'agent-lsp-render)
(require 'agent-lsp-chat)
(require 'agent-lsp-waiting)

(declare-function agent-lsp-review-start "agent-lsp-review" (conn params reply pending))

;;; Permissions

(defconst agent-lsp--option-keys
  '(("allow_once" "y" "Yes" "✓ Allowed")
    ("allow_always" "a" "Yes, don't ask again" "✓ Allowed, not asked again")
    ("reject" "n" "No" "✗ Declined"))
  "How each permission option is offered: option id, key, label, record.")

(defun agent-lsp--offered-options (params)
  "The option ids of the permission request PARAMS, in the server's order."
  (let ((ids (delq nil (mapcar (lambda (o) (plist-get o :optionId))
                               (append (plist-get params :options) nil)))))
    (or ids '("allow_once" "allow_always" "reject"))))

(defun agent-lsp-permission-title (params)
  "What the permission request PARAMS asks, in one line.
A call of a provider-native tool is named as the model called it."
  (let* ((call (plist-get params :toolCall))
         (summary (or (plist-get params :summary) (plist-get call :title) (plist-get call :name) "a tool call"))
         (name (plist-get call :name))
         (model (plist-get call :modelName)))
    (when (and (stringp model) (not (string-empty-p model)) (not (equal model name)))
      (setq summary (if (and (stringp name) (string-prefix-p name summary))
                        (concat model (substring summary (length name)))
                      (concat model ": " summary))))
    (replace-regexp-in-string "\n" " " summary)))

(defun agent-lsp--permission-lines (root params)
  "The details of the permission request PARAMS in the project ROOT, all of them."
  (let* ((call (plist-get params :toolCall))
         (input (plist-get call :input))
         (command (or (plist-get (plist-get call :command) :command)
                      (and (listp input) (plist-get input :command)))))
    (if (stringp command)
        (let ((folder (expand-file-name (or (plist-get (plist-get call :command) :cwd)
                                            (and (listp input) (plist-get input :cwd))
                                            ".")
                                        root)))
          (list (concat "  Command: " (replace-regexp-in-string "\n" "\n           " command))
                (concat "  Folder:  " (abbreviate-file-name (directory-file-name folder)))))
      (split-string (string-trim-right (agent-lsp--input-lines input) "\n") "\n" t))))

(defun agent-lsp--permission-answer (block reply title id record &optional reason)
  "Answer the approval BLOCK with option ID through REPLY; note RECORD for TITLE.
REASON, with a refusal, is passed on to the model."
  (funcall reply (append (list :optionId id) (and reason (list :reason reason))))
  (agent-lsp-waiting-done block (concat record ": " title
                                        (if reason (format " — you said: %S" reason) ""))))

(defun agent-lsp--permission-choices (params reply title)
  "The answers of the permission request PARAMS: (KEY LABEL FUNCTION) each.
REPLY sends the answer; TITLE is what was asked."
  (let ((ids (agent-lsp--offered-options params)))
    (append
     (cl-loop for (id key label record) in agent-lsp--option-keys
              when (member id ids)
              collect (let ((id id) (record record))
                        (list key label (lambda (block)
                                          (agent-lsp--permission-answer block reply title id record)))))
     (when (member "reject" ids)
       (list (list "w" "No, and tell the agent why"
                   (lambda (block)
                     (agent-lsp--permission-answer block reply title "reject" "✗ Declined"
                                                   (agent-lsp-read-reason)))))))))

(defun agent-lsp--request-chat (conn params)
  "The chat for the request PARAMS of CONN: its session's, else the project's."
  (or (agent-lsp--chat-for-session conn (plist-get params :sessionId))
      (agent-lsp-chat-buffer (agent-lsp--root conn))))

(defun agent-lsp-ask-permission (conn params reply pending)
  "Ask the permission request PARAMS of CONN in its chat; REPLY sends the answer.
PENDING is the request: when the server withdraws it, the block closes."
  (let* ((title (agent-lsp-permission-title params))
         (block (agent-lsp-waiting-add
                 (agent-lsp--request-chat conn params)
                 :what "approval"
                 :title (concat "agent-lsp wants to: " title)
                 :lines (agent-lsp--permission-lines (agent-lsp--root conn) params)
                 :choices (agent-lsp--permission-choices params reply title)
                 :decline (lambda (block)
                            (agent-lsp--permission-answer block reply title "reject" "✗ Declined")))))
    (agent-lsp--on-cleanup pending (lambda () (agent-lsp-waiting-done block (concat "(no longer asked: " title ")"))))
    block))

(defun agent-lsp--answering (params reply)
  "REPLY, answering the request PARAMS with its `requestId' carried back as it is."
  (let ((id (plist-get params :requestId)))
    (if (null id)
        reply
      (lambda (result &optional error)
        (funcall reply (if (and result (listp result)) (append result (list :requestId id)) result) error)))))

(defun agent-lsp--handle-permission (conn params)
  "Answer agent/requestPermission with PARAMS on CONN in the chat, or a review."
  (let ((pending nil))
    (setq pending
          (agent-lsp--answer-later
           (lambda (reply)
             (let ((reply (agent-lsp--answering params reply)))
               (if (and (> (length (plist-get params :files)) 0) (fboundp 'agent-lsp-review-start))
                   (agent-lsp-review-start conn params reply pending)
                 (agent-lsp-ask-permission conn params reply pending))))
           (list :optionId "reject") t))
    pending))

;;; Questions

(defun agent-lsp--question-choices (choices free reply)
  "The answers of a question: its CHOICES by number, and one's own words when FREE.
REPLY sends the answer."
  (let ((answer (lambda (block text)
                  (funcall reply (list :answer text))
                  (agent-lsp-waiting-done block (format "You answered: %s" text)))))
    (append
     (cl-loop for choice in choices for i from 1
              collect (let ((choice choice))
                        (list (and (<= i 9) (number-to-string i)) choice
                              (lambda (block) (funcall answer block choice)))))
     (when free
       (list (list "t" (if choices "Something else: write it" "Write your answer")
                   (lambda (block)
                     (let ((text (string-trim (read-string "Your answer: "))))
                       (if (string-empty-p text)
                           (message "agent-lsp: no answer written; the question still waits")
                         (funcall answer block text))))))))))

(defun agent-lsp-ask-question (conn params reply pending)
  "Ask the question PARAMS of CONN in its chat; REPLY sends the answer (nil: none).
PENDING is the request: when the server withdraws it, the block closes."
  (let* ((choices (append (plist-get params :choices) nil))
         (free (not (eq (plist-get params :allowFreeText) :json-false)))
         (no-answer (lambda (block)
                      (funcall reply nil)
                      (agent-lsp-waiting-done block "(not answered)")))
         (block (agent-lsp-waiting-add
                 (agent-lsp--request-chat conn params)
                 :what "question"
                 :title (concat "agent-lsp asks: " (or (plist-get params :question) ""))
                 :choices (append (agent-lsp--question-choices choices free reply)
                                  (list (list "n" "Don't answer" no-answer)))
                 :decline no-answer
                 :decline-label "no answer")))
    (agent-lsp--on-cleanup pending (lambda () (agent-lsp-waiting-done block "(no longer asked)")))
    block))

(defun agent-lsp--handle-ask-user (conn params)
  "Answer agent/askUser with PARAMS on CONN, asked in the chat."
  (let ((pending nil))
    (setq pending (agent-lsp--answer-later
                   (lambda (reply) (agent-lsp-ask-question conn params (agent-lsp--answering params reply) pending))
                   nil t))
    pending))

(defun agent-lsp--handle-message-request (conn params)
  "Answer window/showMessageRequest with PARAMS on CONN: an action from the chat."
  (let ((pending nil))
    (setq pending
          (agent-lsp--answer-later
           (lambda (reply)
             (agent-lsp-ask-question
              conn (list :question (plist-get params :message)
                         :choices (vconcat (mapcar (lambda (a) (plist-get a :title))
                                                   (plist-get params :actions)))
                         :allowFreeText :json-false)
              (lambda (answer) (funcall reply (and answer (list :title (plist-get answer :answer)))))
              pending))
           nil t))
    pending))

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
