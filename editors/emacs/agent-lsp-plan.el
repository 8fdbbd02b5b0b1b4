;;; agent-lsp-plan.el --- Approve the plan the agent made in plan mode  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; In the `plan' safety mode the agent changes nothing: it investigates and proposes a plan
;; (make_plan), shown as a checklist in the chat, and waits.  When such a turn ends, the chat
;; asks what to do with the plan, as a block answered only there: carry it out (the session
;; switches to `agent-lsp-plan-approved-mode' and the agent is asked to go ahead), revise it
;; with words of your own (the session stays in plan mode), or leave it.  A phase report that
;; waits for you is a question of the server (agent-lsp-prompts.el): Continue or Stop here.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'agent-lsp-connection)
(require 'agent-lsp-render)
(require 'agent-lsp-chat)
(require 'agent-lsp-waiting)

(defcustom agent-lsp-plan-approved-mode "ask"
  "The safety mode a session switches to when you approve its plan."
  :type '(choice (const "ask") (const "auto") (const "full_access"))
  :group 'agent-lsp)

(defconst agent-lsp--plan-go-prompt "Carry out the plan you made, step by step."
  "What the agent is asked when its plan is approved.")

(defun agent-lsp--plan-go (buf conn block)
  "Approve the plan in the chat BUF on CONN (its BLOCK): switch modes, go ahead."
  (let ((mode agent-lsp-plan-approved-mode)
        (root (buffer-local-value 'agent-lsp--chat-root buf)))
    (agent-lsp-waiting-done block (format "✓ Plan approved: carried out in %s mode" mode))
    (agent-lsp--request
     conn 'agent/setMode (list :sessionId (buffer-local-value 'agent-lsp--session buf) :mode mode)
     :success (lambda (result)
                (with-current-buffer buf
                  (setq agent-lsp--mode (or (plist-get result :mode) mode))
                  (agent-lsp-chat-note (format "(mode: %s)" agent-lsp--mode)))
                (force-mode-line-update t)
                (agent-lsp-chat-prompt root agent-lsp--plan-go-prompt))
     :error (lambda (why _died)
              (with-current-buffer buf (agent-lsp-render-error (concat "switching modes failed: " why)))))))

(defun agent-lsp--plan-revise (buf block)
  "Ask the agent of the chat BUF (its BLOCK) to change its plan, in words read now."
  (let ((text (string-trim (read-string "What should change in the plan? "))))
    (if (string-empty-p text)
        (message "agent-lsp: nothing written; the plan still waits for you")
      (agent-lsp-waiting-done block (format "You asked for changes to the plan: %s" text))
      (agent-lsp-chat-prompt (buffer-local-value 'agent-lsp--chat-root buf) text))))

(defun agent-lsp--plan-offer (buf conn result)
  "After a turn of the chat BUF on CONN ended with RESULT: ask about its plan.
Only a plan-mode turn that ended normally with a proposed plan asks."
  (when (and (buffer-live-p buf)
             (buffer-local-value 'agent-lsp--plan-proposed buf)
             (equal (buffer-local-value 'agent-lsp--mode buf) "plan")
             (member (plist-get result :stopReason) '("end_turn" nil)))
    (with-current-buffer buf (setq agent-lsp--plan-proposed nil))
    (let ((leave (lambda (block) (agent-lsp-waiting-done block "(plan left for now)"))))
      (agent-lsp-waiting-add
       buf :what "plan approval"
       :title "The agent's plan (above) is ready: carry it out?"
       :lines (list (format "  Go switches the session to %s mode and asks the agent to carry it out;"
                            agent-lsp-plan-approved-mode)
                    "  Revise keeps plan mode and tells the agent what to change.")
       :choices (list (list "g" "Go" (lambda (block) (agent-lsp--plan-go buf conn block)))
                      (list "r" "Revise" (lambda (block) (agent-lsp--plan-revise buf block)))
                      (list "n" "Not now" leave))
       :decline leave :decline-label "not now"))))

(add-hook 'agent-lsp-turn-end-functions #'agent-lsp--plan-offer)

(provide 'agent-lsp-plan)
;;; agent-lsp-plan.el ends here
