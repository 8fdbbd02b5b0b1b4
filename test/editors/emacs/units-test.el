;;; units-test.el --- The package's pure parts, without a server  -*- lexical-binding: t; no-byte-compile: t; -*-

;;; Code:

(require 'agent-lsp-test)

(ert-deftest agent-lsp-unit-hunks ()
  "Hunks split per change; taking some applies exactly those; a bad diff is one hunk."
  (let* ((old "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10")
         (new "l1\nl2 changed\nl3\nl4\nl5\nl6\nl7\nl8\nl9 changed\nl10\nl11\n")
         (diff (concat "--- a/x.txt\n+++ b/x.txt\n@@ -1,10 +1,11 @@\n l1\n-l2\n+l2 changed\n"
                       " l3\n l4\n l5\n l6\n l7\n l8\n-l9\n+l9 changed\n-l10\n"
                       "\\ No newline at end of file\n+l10\n+l11\n"))
         (hunks (agent-lsp-hunks-for-file diff "x.txt" old new)))
    (should (= (length hunks) 2))
    (should (equal (agent-lsp-hunks-apply old hunks '(t nil))
                   "l1\nl2 changed\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10"))
    (should (equal (agent-lsp-hunks-apply old hunks '(nil t))
                   "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9 changed\nl10\nl11\n"))
    (should (equal (agent-lsp-hunks-apply old hunks '(nil nil)) old))
    ;; A diff that does not rebuild the proposal is not trusted: one hunk, all or nothing.
    (let ((whole (agent-lsp-hunks-for-file diff "x.txt" old "something else\n")))
      (should (= (length whole) 1))
      (should (equal (agent-lsp-hunks-apply old whole '(t)) "something else\n")))
    ;; A new file.
    (let ((h (agent-lsp-hunks-for-file "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n" "n.txt" "" "a\nb\n")))
      (should (equal (agent-lsp-hunks-apply "" h '(t)) "a\nb\n")))
    ;; Two files: each is read from its own section; a line like a file header inside a hunk is
    ;; no header.
    (let* ((two (concat "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n--- x\n+x\n keep\n"
                        "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n"))
           (a (agent-lsp-hunks-for-file two "a.txt" "-- x\nkeep\n" "x\nkeep\n"))
           (b (agent-lsp-hunks-for-file two "b.txt" "b\n" "B\n")))
      (should (equal (mapcar #'car (agent-lsp-hunks-sections two)) '("a.txt" "b.txt")))
      (should (equal (agent-lsp-hunks-lines (car a)) '((?- . "-- x\n") (?+ . "x\n"))))
      (should (equal (plist-get (car a) :after) '("keep\n")))
      (should (equal (agent-lsp-hunks-apply "b\n" b '(t)) "B\n")))
    ;; Read a few lines at a time, the builder gives the same hunks.
    (let ((h (agent-lsp-hunks-builder diff "x.txt" old new)))
      (while (not (agent-lsp-hunks-step h 2)))
      (should (equal (agent-lsp-hunks-result h) hunks)))))

(ert-deftest agent-lsp-unit-positions ()
  "LSP positions count UTF-16 code units."
  (with-temp-buffer
    (insert "a😀b\nsecond")
    (should (equal (agent-lsp--position 4) '(:line 0 :character 4)))
    (should (equal (agent-lsp--point '(:line 0 :character 3)) 3))
    (should (equal (agent-lsp--point '(:line 1 :character 3)) 8))
    (should (equal (agent-lsp--point '(:line 9 :character 0)) (point-max)))))

(ert-deftest agent-lsp-unit-frames ()
  "Messages arriving in pieces are read whole; bytes that are not a message are malformed."
  (let* ((received nil) (bad nil)
         (frame (lambda (json) (format "Content-Length: %d\r\n\r\n%s" (string-bytes json) json)))
         (proc (make-pipe-process :name "frames-test" :noquery t))
         (frames (generate-new-buffer " frames")))
    (process-put proc 'jsonrpc-connection 'a-connection)
    (process-put proc 'agent-lsp-frames frames)
    (cl-letf (((symbol-function 'agent-lsp--malformed) (lambda (_conn why) (setq bad why)))
              ((symbol-function 'jsonrpc-connection-receive) (lambda (_conn m) (push m received))))
      (let* ((first (funcall frame "{\"a\":\"é\"}"))
             (text (concat first (funcall frame "{\"b\":false,\"c\":null}")))
             (cut (+ (length first) 3)))
        (agent-lsp--process-filter proc (substring text 0 10))
        (should-not received)
        (agent-lsp--process-filter proc (substring text 10 cut))
        (should (equal received '((:a "é"))))
        (agent-lsp--process-filter proc (substring text cut))
        (should (equal (reverse received) '((:a "é") (:b :json-false :c nil))))
        (should-not bad)
        (agent-lsp--process-filter proc (funcall frame "{oops"))
        (should (string-search "oops" bad))
        (agent-lsp--process-filter proc (concat (make-string 300 ?x) (funcall frame "{}")))
        (should (string-search "xxx" bad))))
    (delete-process proc)
    (kill-buffer frames)))

(ert-deftest agent-lsp-unit-compaction-line ()
  "A compaction update is one marker line naming what it archived."
  (should (equal (agent-lsp-compaction-line '(:kind "compaction" :n 2 :trigger "auto" :tokensBefore 171000 :tokensAfter 2400 :through 58))
                 "── context compacted (checkpoint 2, auto): about 171,000 → 2,400 tokens; messages 1-58 archived ──")))

(ert-deftest agent-lsp-unit-options ()
  "Only the options the server sent are offered, and a No with words when No is one."
  (let ((params '(:toolCall (:name "execute_command" :input (:command "ls"))
                  :options [(:optionId "allow_once") (:optionId "reject")])))
    (should (equal (mapcar #'car (agent-lsp--permission-choices params #'ignore "ls")) '("y" "n" "w")))
    (should (equal (mapcar #'car (agent-lsp--permission-choices '(:options [(:optionId "allow_once")]) #'ignore "ls"))
                   '("y"))))
  ;; The answer carries the request's id back, whatever it is.
  (let (sent)
    (funcall (agent-lsp--answering '(:requestId "7f3c-2a9e") (lambda (result &optional _) (setq sent result)))
             '(:optionId "allow_once"))
    (should (equal sent '(:optionId "allow_once" :requestId "7f3c-2a9e")))
    (funcall (agent-lsp--answering '(:requestId "7f3c-2a9e") (lambda (result &optional _) (setq sent result))) nil)
    (should (null sent)))
  ;; A provider-native call is named as the model called it.
  (should (equal (agent-lsp-permission-title '(:summary "execute_command: ls" :toolCall (:name "execute_command" :modelName "bash")))
                 "bash: ls")))

(ert-deftest agent-lsp-unit-save-documents ()
  "agent/saveDocuments saves exactly the buffers named."
  (let* ((a (agent-lsp-test-visit "a.txt")) (b (agent-lsp-test-visit "b.txt")) (answer nil))
    (with-current-buffer a (insert "changed "))
    (with-current-buffer b (insert "changed too "))
    (funcall (agent-lsp--pending-start
              (agent-lsp--handle-save-documents
               nil (list :uris (vector (agent-lsp--path-to-uri (agent-lsp-test-file "a.txt"))))))
             (lambda (result) (setq answer result)))
    (should (equal (append (plist-get answer :saved) nil)
                   (list (agent-lsp--path-to-uri (agent-lsp-test-file "a.txt")))))
    (should (equal (agent-lsp-test-disk "a.txt") "changed a\n"))
    (should (equal (agent-lsp-test-disk "b.txt") "b\n"))
    (should (buffer-modified-p b))))

(ert-deftest agent-lsp-unit-large-message ()
  "A message decoded in slices is the message parsed whole: escapes, non-ASCII and
surrogate pairs across chunk boundaries included."
  (let* ((piece "tab\\there \\\"quoted\\\" back\\\\slash é 😀 \\u00e9\\ud83d\\ude00 line\\n")
         (long (apply #'concat (make-list 400 piece)))
         (json (format "{\"jsonrpc\":\"2.0\",\"id\":7,\"params\":{\"a\":\"%s\",\"list\":[\"%s\",1,null,false],\"small\":\"x\"}}"
                       long long))
         (agent-lsp--large-chunk 97) (agent-lsp--large-string 500)
         (result nil) (failed nil))
    (with-temp-buffer
      (insert json)
      (agent-lsp-decode-large (current-buffer) (copy-marker (point-min)) (copy-marker (point-max))
                              (lambda (m) (setq result m)) (lambda (why) (setq failed why)))
      (agent-lsp-test-wait "the decoding" (lambda () (or result failed))))
    (should-not failed)
    (should (equal result (json-parse-string json :object-type 'plist :null-object nil :false-object :json-false)))))

(ert-deftest agent-lsp-unit-waiting-point ()
  "A block written where point waits leaves point after it, not on it: no key answers it unasked."
  (let ((chat (agent-lsp-test-chat)) (answered nil))
    (with-current-buffer chat
      (agent-lsp--insert "the end of an answer\n\n")
      (goto-char agent-lsp--transcript-end))
    (switch-to-buffer chat)
    (set-window-point (selected-window) (with-current-buffer chat (point)))
    (let ((block (agent-lsp-waiting-add chat :what "approval" :title "Allow it?"
                                        :choices (list (list "y" "Yes" (lambda (b) (setq answered t) (agent-lsp-waiting-done b "yes"))))
                                        :decline #'ignore)))
      (with-current-buffer chat
        (should-not (agent-lsp-waiting-at (point)))
        (should-not (agent-lsp-waiting-at (window-point (selected-window))))
        ;; Typed there, y meets the read-only prompt line: no answer.
        (condition-case nil (execute-kbd-macro "y") (text-read-only nil))
        (should-not answered)
        (goto-char (agent-lsp--waiting-beg block))
        (execute-kbd-macro "y")
        (should answered)))))

;;; units-test.el ends here
