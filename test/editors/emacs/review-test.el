;;; review-test.el --- Reviewing proposed changes hunk by hunk  -*- lexical-binding: t; -*-

;;; Code:

(require 'agent-lsp-test)
(require 'ediff)

(defun agent-lsp-test-wait-review (&optional file)
  "Wait for the review buffer (showing FILE when given)."
  (agent-lsp-test-wait (format "the review%s" (if file (concat " of " file) ""))
                       (lambda ()
                         (let ((buf (agent-lsp-test-review-buffer)))
                           (and buf (or (null file)
                                        (with-current-buffer buf
                                          (string-search (concat ": " file " ") (buffer-string)))))))))

(ert-deftest agent-lsp-review-partial-then-reject ()
  "Taking one hunk of two writes exactly that hunk; a rejected proposal changes nothing."
  (let ((buf (agent-lsp-test-visit "app.txt")))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Change lines 2 and 9")
    (agent-lsp-test-wait-review "app.txt")
    (with-current-buffer (agent-lsp-test-review-buffer)
      (should (string-search "File 1/1: app.txt" (buffer-string)))
      (should (string-search "+line 2 changed" (buffer-string)))
      (should (string-search "+line 9 changed" (buffer-string)))
      (should (eql (agent-lsp--review-hunk-at) 0)))
    (agent-lsp-test-review-key "a")          ; take the first hunk
    (with-current-buffer (agent-lsp-test-review-buffer)
      (should (eql (agent-lsp--review-hunk-at) 1))
      (should (string-search "[taken]" (buffer-string))))
    (agent-lsp-test-review-key "r")          ; leave the second
    (agent-lsp-test-review-key "RET")        ; finish
    (agent-lsp-test-chat-has "Changed what you accepted.")
    (agent-lsp-test-wait-idle)
    (should-not (agent-lsp-test-review-buffer))
    (let ((lines (split-string (agent-lsp-test-text buf) "\n")))
      (should (equal (nth 1 lines) "line 2 changed"))
      (should (equal (nth 8 lines) "line 9")))
    (let ((accepted (agent-lsp-test-text buf)))
      (agent-lsp-test-send "Change it again")
      (agent-lsp-test-wait-review "app.txt")
      (agent-lsp-test-review-key "R")
      (agent-lsp-test-chat-has "Understood.")
      (agent-lsp-test-wait-idle)
      (should (equal (agent-lsp-test-text buf) accepted)))))

(ert-deftest agent-lsp-review-files-accept-all ()
  "A two-file change is reviewed file after file; accept all takes the rest; kill rejects."
  (let ((a (agent-lsp-test-visit "a.txt")))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open a)
    (agent-lsp-test-send "Patch both files")
    (agent-lsp-test-wait-review "a.txt")
    (with-current-buffer (agent-lsp-test-review-buffer)
      (should (string-search "File 1/2: a.txt" (buffer-string))))
    (agent-lsp-test-review-key "r")
    (agent-lsp-test-review-key "a")
    (agent-lsp-test-review-key "RET")
    (agent-lsp-test-wait-review "b.txt")
    (agent-lsp-test-review-key "A")
    (agent-lsp-test-chat-has "Patched.")
    (agent-lsp-test-wait-idle)
    (let ((lines (split-string (agent-lsp-test-text a) "\n")))
      (should (equal (nth 1 lines) "line 2"))
      (should (equal (nth 8 lines) "line 9 changed")))
    ;; Killing the review buffer answers "reject" at once.
    (agent-lsp-test-send "Patch again")
    (agent-lsp-test-wait-review "a.txt")
    (kill-buffer (agent-lsp-test-review-buffer))
    (agent-lsp-test-chat-has "Left alone.")
    (agent-lsp-test-wait-idle)))

(ert-deftest agent-lsp-review-cancel ()
  "Cancelling the turn closes its open review; the chat goes on."
  (let ((buf (agent-lsp-test-visit "app.txt")) (chat (agent-lsp-test-start-chat)))
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Change two")
    (agent-lsp-test-wait-review "app.txt")
    (with-current-buffer chat (call-interactively (key-binding (kbd "C-c C-k"))))
    (agent-lsp-test-wait-idle 10)
    (should-not (agent-lsp-test-review-buffer))
    (agent-lsp-test-chat-has "(cancelled)")
    (should (equal (agent-lsp-test-text buf) "one\ntwo\n"))
    (agent-lsp-test-send "Go on")
    (agent-lsp-test-chat-has "After the cancel.")
    (agent-lsp-test-wait-idle)))

(defun agent-lsp-test-ediff-control ()
  "The ediff control buffer of the review, once it is up."
  (cl-find-if (lambda (b) (and (local-variable-p 'ediff-control-buffer b)
                               (eq (buffer-local-value 'ediff-control-buffer b) b)))
              (buffer-list)))

(defun agent-lsp-test-ediff-key (key)
  "Press KEY in the review's ediff control buffer."
  (with-current-buffer (agent-lsp-test-ediff-control)
    (call-interactively (lookup-key (current-local-map) (kbd key)))))

(ert-deftest agent-lsp-review-ediff ()
  "In ediff, buffer A becomes the result: one change copied from B is what is written."
  (setq agent-lsp-review-style 'ediff)
  (let ((buf (agent-lsp-test-visit "app.txt")))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Change lines 2 and 9")
    (agent-lsp-test-wait "the ediff session" #'agent-lsp-test-ediff-control)
    (with-current-buffer (agent-lsp-test-ediff-control)
      (should (= ediff-number-of-differences 2))
      (ediff-next-difference)
      (ediff-copy-B-to-A nil))
    (agent-lsp-test-ediff-key "C-c C-c")
    (agent-lsp-test-chat-has "Changed what you accepted.")
    (agent-lsp-test-wait-idle)
    (let ((lines (split-string (agent-lsp-test-text buf) "\n")))
      (should (equal (nth 1 lines) "line 2 changed"))
      (should (equal (nth 8 lines) "line 9")))
    (agent-lsp-test-send "Change it again")
    (agent-lsp-test-wait "the second ediff session" #'agent-lsp-test-ediff-control)
    (agent-lsp-test-ediff-key "C-c C-k")
    (agent-lsp-test-chat-has "Understood.")
    (agent-lsp-test-wait-idle)
    (should-not (agent-lsp-test-ediff-control))))

;;; review-test.el ends here
