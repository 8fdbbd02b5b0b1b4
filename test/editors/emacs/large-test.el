;;; large-test.el --- A 2 MB rewrite: the review opens without freezing Emacs  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(defun agent-lsp-test-watch-lateness (interval)
  "Start a timer every INTERVAL seconds; return a function giving how late it ran at worst.
The function returns (CPU WALL): the most processor time Emacs spent
between two runs, beyond INTERVAL (what Emacs itself kept the timer
waiting), and the most time by the clock (which includes the time a
loaded machine gave the process no processor).  Called with t, the
function stops the timer."
  (let* ((cpu (float-time (get-internal-run-time))) (next (+ (float-time) interval))
         (worst-cpu 0.0) (worst-wall 0.0)
         (timer (run-at-time interval interval
                             (lambda ()
                               (let ((now-cpu (float-time (get-internal-run-time))))
                                 (setq worst-cpu (max worst-cpu (- now-cpu cpu interval))
                                       worst-wall (max worst-wall (- (float-time) next))
                                       cpu now-cpu
                                       next (+ (float-time) interval)))))))
    (lambda (&optional stop)
      (when stop (cancel-timer timer))
      (list worst-cpu worst-wall))))

(defun agent-lsp-test-timed-call (fn)
  "Call FN; return the seconds it took."
  (let ((start (float-time))) (funcall fn) (- (float-time) start)))

(ert-deftest agent-lsp-review-large ()
  "The review of a 2 MB rewrite opens while timers keep firing; accepting it is one undo step."
  (let* ((buf (agent-lsp-test-visit "big.txt"))
         (old (agent-lsp-test-text buf))
         (lines (plist-get agent-lsp-test-data :lines))
         (lateness nil) (start nil) (opened nil))
    (agent-lsp-test-start-chat)
    (agent-lsp-test-wait-open buf)
    (setq lateness (agent-lsp-test-watch-lateness 0.02) start (float-time))
    (agent-lsp-test-send "Rewrite big.txt")
    (let ((block (agent-lsp-test-block "big.txt" 120)))
      (agent-lsp-test-wait-review "big.txt")
      (setq opened (- (float-time) start))
      (pcase-let ((`(,cpu ,wall) (funcall lateness t)))
        (message "benchmark: the review of a %d-line rewrite (%d KB) opened in %.2f s; the 20 ms timer waited at most %.0f ms of Emacs's own work (%.0f ms by the clock on this machine)"
                 lines (/ (length old) 1024) opened (* 1000 cpu) (* 1000 wall))
        ;; Emacs never works 200 ms without running timers (and keys): it is never frozen.
        (should (< cpu 0.2))
        ;; By the clock, a loaded machine adds the time it runs other processes; a frozen Emacs
        ;; (seconds before this change) would still go past this.
        (should (< wall 1.0)))
      (let ((text (agent-lsp-test-block-text block)))
        (should (string-search "big.txt: 1 change (-40000 +40000 lines)" text))
        (should (string-search "[A] Accept all" text))))
    (with-current-buffer (agent-lsp-test-review-buffer)
      (should (string-search "File 1/1: big.txt" (buffer-string))))
    (setq lateness (agent-lsp-test-watch-lateness 0.02) start (float-time))
    (agent-lsp-test-press "A")
    (agent-lsp-test-wait "the rewrite in the buffer"
                         (lambda () (with-current-buffer buf
                                      (save-excursion (goto-char (point-min))
                                                      (let ((case-fold-search nil)) (looking-at "LINE 000001")))))
                         120)
    (pcase-let ((`(,cpu ,wall) (funcall lateness t)))
      (message "benchmark: accepting it took %.2f s; the timer waited at most %.0f ms of Emacs's work (%.0f ms by the clock)"
               (- (float-time) start) (* 1000 cpu) (* 1000 wall)))
    (agent-lsp-test-chat-has "Rewritten." 120)
    (should (string-search "✓ Accepted: write_file: big.txt" (agent-lsp-test-chat-text)))
    (should-not (string-search "big.txt: 1 change" (agent-lsp-test-chat-text)))
    (agent-lsp-test-wait-idle 120)
    (should (equal (agent-lsp-test-text buf) (agent-lsp-test-disk "new.txt")))
    ;; One undo step takes the whole rewrite back.
    (with-current-buffer buf
      (let ((seconds (agent-lsp-test-timed-call (lambda () (undo-boundary) (undo)))))
        (message "benchmark: undoing it took %.0f ms" (* 1000 seconds))))
    (should (equal (agent-lsp-test-text buf) old))))

;;; large-test.el ends here
