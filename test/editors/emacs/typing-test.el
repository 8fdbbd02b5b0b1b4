;;; typing-test.el --- Emacs stays responsive while the agent works  -*- lexical-binding: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-typing-during-turn ()
  "Typing goes on, undelayed, during a 20-second turn; the server sees what was typed."
  (let* ((buf (agent-lsp-test-visit "typed.txt"))
         (interval 0.05) (lateness nil) (typed 0)
         (timer nil))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (agent-lsp-test-send "Take your time")
    (agent-lsp-test-chat-has "slow")
    ;; A key every 50 ms, as a typist would press them; each one records how late it ran.
    (let ((next (+ (float-time) interval)))
      (setq timer
            (run-at-time interval interval
                         (lambda ()
                           (push (- (float-time) next) lateness)
                           (setq next (+ (float-time) interval))
                           (with-current-buffer buf
                             (goto-char (point-max))
                             (let ((last-command-event ?k)) (self-insert-command 1))
                             (setq typed (1+ typed)))))))
    (unwind-protect
        (agent-lsp-test-wait-idle 60)
      (cancel-timer timer))
    (agent-lsp-test-chat-has "done slowly.")
    (let ((worst (apply #'max lateness))
          (seconds (* typed interval)))
      (message "typing: %d keys over the turn, worst delay %.0f ms" typed (* 1000 worst))
      (should (> seconds 15))
      (should (< worst 0.25)))
    (should (equal (agent-lsp-test-text buf) (make-string typed ?k)))
    (agent-lsp-test-send "Read what I typed")
    (agent-lsp-test-chat-has "Read it.")
    (agent-lsp-test-wait-idle)))

(ert-deftest agent-lsp-stream-benchmark ()
  "Streaming a 2,000-line answer costs under 20 ms of handler time per second."
  (let ((handler 0.0) (first nil) (last nil) (lines (plist-get agent-lsp-test-data :lines)))
    (dolist (fn '(agent-lsp--dispatch-notification agent-lsp-render-flush))
      (advice-add fn :around
                  (lambda (orig &rest args)
                    (let ((start (float-time)))
                      (unless first (setq first start))
                      (prog1 (apply orig args)
                        (setq last (float-time) handler (+ handler (- last start))))))))
    (agent-lsp-test-start-chat)
    (setq first nil handler 0.0)
    (agent-lsp-test-send "Stream a lot")
    (agent-lsp-test-chat-has (format "line %d of the answer" lines) 120)
    (agent-lsp-test-wait-idle 60)
    (let* ((seconds (- last first))
           (per-second (* 1000 (/ handler seconds))))
      (message "benchmark: %d lines streamed in %.2f s, %.1f ms in the update handler (%.2f ms per second of streaming)"
               lines seconds (* 1000 handler) per-second)
      (should (> seconds 1))
      (should (< per-second 20)))
    ;; Every line arrived, in order.
    (let ((text (agent-lsp-test-chat-text)) (pos 0))
      (dotimes (i lines)
        (setq pos (string-search (format "line %d of the answer" (1+ i)) text pos))
        (should pos)))))

;;; typing-test.el ends here
