;;; typing-test.el --- Emacs stays responsive while the agent works  -*- lexical-binding: t; no-byte-compile: t; -*-

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
      ;; Generous for a loaded machine; a blocked Emacs would wait out the whole turn.
      (should (< worst 0.5)))
    (should (equal (agent-lsp-test-text buf) (make-string typed ?k)))
    (agent-lsp-test-send "Read what I typed")
    (agent-lsp-test-chat-has "Read it.")
    (agent-lsp-test-wait-idle)))

(defun agent-lsp-test-timed (functions)
  "Time the outermost calls of FUNCTIONS; return a function giving (SECONDS FIRST LAST)."
  (let ((spent 0.0) (depth 0) (first nil) (last nil))
    (dolist (fn functions)
      (advice-add fn :around
                  (lambda (orig &rest args)
                    ;; Only the outermost call counts: on Emacs 28 the filter dispatches inside it.
                    (if (> depth 0)
                        (apply orig args)
                      (let ((start (float-time)))
                        (setq depth 1)
                        (unless first (setq first start))
                        (unwind-protect (apply orig args)
                          (setq depth 0 last (float-time) spent (+ spent (- last start)))))))))
    (lambda (&optional reset)
      (if reset (setq spent 0.0 first nil last nil) (list spent first last)))))

(ert-deftest agent-lsp-stream-benchmark ()
  "Streaming a 2,000-line answer costs a few ms of update handling per second.
Reported too: the whole receiving path (reading, parsing and
dispatching every message), which includes the garbage collections
the parsing causes."
  (let ((handler (agent-lsp-test-timed '(agent-lsp--handle-update agent-lsp-render-flush)))
        (receive (agent-lsp-test-timed '(agent-lsp--process-filter agent-lsp-render-flush)))
        (lines (plist-get agent-lsp-test-data :lines)))
    (agent-lsp-test-start-chat)
    (funcall handler t)
    (funcall receive t)
    (agent-lsp-test-send "Stream a lot")
    (agent-lsp-test-chat-has (format "line %d of the answer" lines) 120)
    (agent-lsp-test-wait-idle 60)
    (pcase-let* ((`(,updates ,first ,last) (funcall handler))
                 (`(,all ,_ ,_) (funcall receive))
                 (seconds (- last first))
                 (per-second (* 1000 (/ updates seconds)))
                 (all-per-second (* 1000 (/ all seconds))))
      (message "benchmark: %d lines streamed in %.2f s: update handler %.1f ms (%.2f ms per second), whole receiving path %.1f ms (%.2f ms per second)"
               lines seconds (* 1000 updates) per-second (* 1000 all) all-per-second)
      (should (> seconds 1))
      ;; Guards against a handler or receiving path that grows with the transcript (a few ms per
      ;; second when quiet); loose enough for a loaded 2-core machine, where time itself stretches.
      ;; The figures are printed for comparison; speed is judged in bench/, not here.
      (should (< per-second 100))
      (should (< all-per-second 300)))
    ;; Every line arrived, in order.
    (let ((text (agent-lsp-test-chat-text)) (pos 0))
      (dotimes (i lines)
        (setq pos (string-search (format "line %d of the answer" (1+ i)) text pos))
        (should pos)))))

;;; typing-test.el ends here
