/**
 * The per-file engine of replace_text: a literal or regular-expression replacement in one text.
 *
 * Literal mode replaces every occurrence as is (no `$` patterns in the replacement, so code
 * containing `$1` or `$&` is written unchanged). Regex mode uses JavaScript syntax with the `g` and
 * `m` flags, so `^` and `$` match at line starts and ends as they do in grep and sed, and the
 * replacement may use `$1`, `$<name>`, `$&`.
 */

/** What to replace. */
export interface ReplaceTextRequest {
  find: string;
  replace: string;
  /** Treat `find` as a JavaScript regular expression. */
  regex?: boolean;
}

/** The new text and how many replacements were made, or why the request is invalid. */
export type ReplaceTextResult = { ok: true; text: string; count: number } | { ok: false; error: string };

/** Compiles a replace_text pattern, or explains why it is not a valid JavaScript regex. */
function compileFindRegex(find: string): RegExp | string {
  try {
    return new RegExp(find, "gm");
  } catch (e) {
    // V8 says "Invalid regular expression: /(a/gm: Unterminated group"; keep only the reason.
    let reason = (e as Error).message.replace(/^Invalid regular expression: /, "");
    const echoed = `/${find}/gm: `;
    if (reason.startsWith(echoed)) reason = reason.slice(echoed.length);
    return `Invalid regular expression /${find}/: ${reason}. Use JavaScript regex syntax.`;
  }
}

/** Replaces every occurrence of `find` in `text`. */
export function replaceText(text: string, request: ReplaceTextRequest): ReplaceTextResult {
  if (request.find.length === 0) return { ok: false, error: "find is empty: give the text (or regex) to replace." };
  if (!request.regex) {
    const parts = text.split(request.find);
    return { ok: true, text: parts.join(request.replace), count: parts.length - 1 };
  }
  const re = compileFindRegex(request.find);
  if (typeof re === "string") return { ok: false, error: re };
  let count = 0;
  // Counted separately so the `$1` expansion stays String.prototype.replace's own.
  for (const _match of text.matchAll(re)) count++;
  return { ok: true, text: count === 0 ? text : text.replace(re, request.replace), count };
}
