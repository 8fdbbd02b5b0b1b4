;;; agent-lsp-edits.el --- Apply the agent's edits to buffers, save buffers on request  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The agent-lsp authors
;; SPDX-License-Identifier: MIT

;;; Commentary:

;; `workspace/applyEdit': every file's edits land in its buffer as one undo step, unsaved;
;; a versioned edit of a buffer whose text changed since that version is refused whole
;; (nothing is applied), as LSP says; the resulting `didChange' is sent before the answer,
;; so the server sees the new text when it hears "applied".  Create, rename and delete
;; operations act on the files and on the buffers visiting them.
;; `agent/saveDocuments': saves exactly the buffers named.

;;; Code:

(require 'cl-lib)
(require 'agent-lsp-connection)
(require 'agent-lsp-handlers)
(require 'agent-lsp-documents)

;;; Checking

(defun agent-lsp--edit-kind (change)
  "The kind of a documentChanges entry CHANGE: edit, create, rename or delete."
  (let ((kind (plist-get change :kind)))
    (if kind (intern kind) 'edit)))

(defun agent-lsp--document-changes (edit)
  "Return the list of document edits of the WorkspaceEdit EDIT, in order."
  (or (append (plist-get edit :documentChanges) nil)
      ;; The older `changes' map: URI -> edits, no versions.
      (cl-loop for (uri edits) on (plist-get edit :changes) by #'cddr
               collect (list :textDocument (list :uri (substring (symbol-name uri) 1) :version nil)
                             :edits edits))))

(defun agent-lsp--stale-reason (change)
  "Why the text edit CHANGE cannot be applied as versioned, or nil."
  (let* ((doc (plist-get change :textDocument))
         (uri (plist-get doc :uri))
         (version (plist-get doc :version))
         (buf (agent-lsp--buffer-for-uri uri)))
    (when version
      (cond
       ((not (and buf (buffer-local-value 'agent-lsp--conn buf)))
        (format "%s is not open in Emacs" (file-name-nondirectory (agent-lsp--uri-to-path uri))))
       (t
        ;; Unsent typing makes the buffer newer than any version the server can name.
        (agent-lsp--flush buf)
        (let ((current (buffer-local-value 'agent-lsp--version buf)))
          (unless (eql current version)
            (format "%s changed in Emacs (version %s is stale, the buffer is at version %s)"
                    (buffer-name buf) version current))))))))

;;; Applying

(defconst agent-lsp--edits-in-one 64
  "Edits of one file above which they are applied as one replacement.")

(defun agent-lsp--edits-positions (edits)
  "The LSP text EDITS as (BEG END TEXT), the last first (ties in their order)."
  (let ((edits (mapcar (lambda (e)
                         (let ((range (plist-get e :range)))
                           (list (agent-lsp--point (plist-get range :start))
                                 (agent-lsp--point (plist-get range :end))
                                 (plist-get e :newText))))
                       edits)))
    ;; Positions refer to the text before any edit: apply from the end backwards (the stable
    ;; sort of the reversed list keeps insertions at one place in their order).
    (sort (nreverse edits) (lambda (a b) (> (car a) (car b))))))

(defun agent-lsp--replace-span (edits)
  "Apply EDITS, (BEG END TEXT) last first, as one replacement of their span.
Thousands of edits (a rewrite) cost one deletion and one insertion, and
undoing them too; point keeps its line and column."
  (let* ((beg (apply #'min (mapcar #'car edits)))
         (end (apply #'max (mapcar #'cadr edits)))
         (pieces nil) (cursor end)
         (line (and (<= beg (point) end) (line-number-at-pos)))
         (column (current-column)))
    (dolist (e edits)
      (push (buffer-substring-no-properties (nth 1 e) cursor) pieces)
      (push (nth 2 e) pieces)
      (setq cursor (nth 0 e)))
    (push (buffer-substring-no-properties beg cursor) pieces)
    (let ((text (apply #'concat pieces)))
      (save-excursion
        (goto-char beg)
        (delete-region beg end)
        (insert text)))
    (when line
      (goto-char (point-min))
      (forward-line (1- line))
      (move-to-column column))))

(defun agent-lsp--apply-text-edits (edits)
  "Apply the LSP text EDITS to the current buffer as one undo step."
  (let* ((edits (agent-lsp--edits-positions edits))
         ;; The boundary first: the group must not swallow the user's last change.
         (group (progn (undo-boundary) (prepare-change-group))))
    (activate-change-group group)
    (unwind-protect
        (save-restriction
          (widen)
          (if (> (length edits) agent-lsp--edits-in-one)
              (agent-lsp--replace-span edits)
            (save-excursion
              (dolist (e edits)
                (goto-char (nth 0 e))
                (delete-region (nth 0 e) (nth 1 e))
                (insert (nth 2 e))))))
      (accept-change-group group)
      (undo-amalgamate-change-group group))
    (undo-boundary)))

(defun agent-lsp--apply-edit-change (change)
  "Apply one text edit CHANGE to its buffer, visiting the file if needed."
  (let* ((uri (plist-get (plist-get change :textDocument) :uri))
         (buf (or (agent-lsp--buffer-for-uri uri)
                  (find-file-noselect (agent-lsp--uri-to-path uri)))))
    (with-current-buffer buf
      (agent-lsp--apply-text-edits (append (plist-get change :edits) nil))
      (agent-lsp--flush buf))))

(defun agent-lsp--apply-create (change)
  "Create the file of CHANGE."
  (let* ((file (agent-lsp--uri-to-path (plist-get change :uri)))
         (options (plist-get change :options)))
    (cond ((not (file-exists-p file))
           (make-directory (file-name-directory file) t)
           (write-region "" nil file nil 'silent))
          ((eq (plist-get options :overwrite) t)
           (write-region "" nil file nil 'silent)
           (let ((buf (find-buffer-visiting file)))
             (when buf (with-current-buffer buf (revert-buffer t t t)))))
          ((eq (plist-get options :ignoreIfExists) t) nil)
          (t (error "%s already exists" file)))))

(defun agent-lsp--apply-rename (change)
  "Rename the file of CHANGE, and the buffer visiting it."
  (let* ((old (agent-lsp--uri-to-path (plist-get change :oldUri)))
         (new (agent-lsp--uri-to-path (plist-get change :newUri)))
         (options (plist-get change :options))
         (buf (find-buffer-visiting old)))
    (unless (and (file-exists-p new) (eq (plist-get options :ignoreIfExists) t))
      (make-directory (file-name-directory new) t)
      (rename-file old new (eq (plist-get options :overwrite) t))
      (when buf
        (with-current-buffer buf
          ;; The file moved with the buffer: keep its modified state.
          (set-visited-file-name new t t))))))

(defun agent-lsp--apply-delete (change)
  "Delete the file of CHANGE and kill the buffer visiting it."
  (let* ((file (agent-lsp--uri-to-path (plist-get change :uri)))
         (options (plist-get change :options))
         (buf (find-buffer-visiting file)))
    (cond ((file-directory-p file)
           (delete-directory file (eq (plist-get options :recursive) t)))
          ((file-exists-p file) (delete-file file))
          ((not (eq (plist-get options :ignoreIfNotExists) t))
           (error "%s does not exist" file)))
    (when buf
      (with-current-buffer buf
        (set-buffer-modified-p nil)
        (let ((kill-buffer-query-functions nil)) (kill-buffer buf))))))

(defun agent-lsp-apply-workspace-edit (edit)
  "Apply the LSP WorkspaceEdit EDIT; return nil, or why it was not applied."
  (let* ((changes (agent-lsp--document-changes edit))
         (stale (cl-some (lambda (c) (and (eq (agent-lsp--edit-kind c) 'edit)
                                          (agent-lsp--stale-reason c)))
                         changes)))
    (or stale
        (condition-case err
            (progn
              (dolist (change changes)
                (pcase (agent-lsp--edit-kind change)
                  ('edit (agent-lsp--apply-edit-change change))
                  ('create (agent-lsp--apply-create change))
                  ('rename (agent-lsp--apply-rename change))
                  ('delete (agent-lsp--apply-delete change))))
              nil)
          (error (error-message-string err))))))

(defun agent-lsp--handle-apply-edit (_conn params)
  "Answer workspace/applyEdit with PARAMS, from a timer outside the process filter."
  (agent-lsp--answer-later
   (lambda (reply)
     (let ((why (agent-lsp-apply-workspace-edit (plist-get params :edit))))
       (when why (agent-lsp--log "refused an edit: %s" why))
       (funcall reply (if why
                          (list :applied :json-false :failureReason why)
                        (list :applied t)))))
   (list :applied :json-false :failureReason "Emacs could not apply the edit")))

;;; Saving

(defun agent-lsp--save-uri (uri)
  "Save the buffer visiting URI; return nil, or why it was not saved."
  (let ((buf (agent-lsp--buffer-for-uri uri)))
    (condition-case err
        (progn
          (when (and buf (buffer-modified-p buf))
            (with-current-buffer buf (save-buffer)))
          nil)
      (error (error-message-string err)))))

(defun agent-lsp--handle-save-documents (_conn params)
  "Answer agent/saveDocuments with PARAMS: save exactly the buffers named."
  (agent-lsp--answer-later
   (lambda (reply)
     (let (saved failed)
       (mapc (lambda (uri)
               (let ((why (agent-lsp--save-uri uri)))
                 (if why
                     (push (list :uri uri :reason why) failed)
                   (push uri saved))))
             (plist-get params :uris))
       (funcall reply (append (list :saved (vconcat (nreverse saved)))
                              (and failed (list :failed (vconcat (nreverse failed))))))))
   (list :saved [] :failed [])))

(agent-lsp--on-request 'workspace/applyEdit #'agent-lsp--handle-apply-edit)
(agent-lsp--on-request 'agent/saveDocuments #'agent-lsp--handle-save-documents)

(provide 'agent-lsp-edits)
;;; agent-lsp-edits.el ends here
