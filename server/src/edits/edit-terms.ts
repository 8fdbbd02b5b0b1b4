/**
 * The names an edit tool gives its fields, so the engine's messages speak the calling tool's
 * language: a model using the text editor has `old_str` and no replace-all, and a hint naming
 * edit_file's `allow_multiple` would send it looping on a field its tool does not have.
 */

/** One tool's field names. */
export interface EditTerms {
  /** The text to find. */
  target: string;
  /** The text put in its place. */
  replacement: string;
  /** The flag that replaces every match, when the tool has one. */
  multiple?: string;
  /** The line to insert after, when the tool can insert. */
  insertLine?: string;
  /** The text inserted. */
  inserted: string;
}

/** edit_file's fields. */
export const EDIT_FILE_TERMS: EditTerms = Object.freeze({
  target: "target_content",
  replacement: "replacement_content",
  multiple: "allow_multiple",
  insertLine: "insert_line",
  inserted: "replacement_content",
});

/** Anthropic's text editor (str_replace_based_edit_tool): no replace-all. */
export const TEXT_EDITOR_TERMS: EditTerms = Object.freeze({
  target: "old_str",
  replacement: "new_str",
  insertLine: "insert_line",
  inserted: "insert_text",
});
