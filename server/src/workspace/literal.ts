/**
 * The longest run of literal text every match of a regex must contain, when one can be found
 * safely. search_files uses it to reject files by a byte search (native speed, no decoding)
 * before running the real regex on the few files that contain it. Conservative by design: any
 * construct it does not understand ends the run, and a top-level `|` gives up altogether.
 */

/** Escapes of punctuation stand for the character itself. */
const ESCAPED_LITERAL = /[\\^$.*+?()[\]{}|/\-]/;

/** Index after the group starting at `i` (an opening paren), or -1 when unbalanced. */
function skipGroup(src: string, i: number): number {
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (c === "[") j = skipClass(src, j) - 1;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j + 1;
  }
  return -1;
}

/** Index after the class starting at `i` (an opening bracket). */
function skipClass(src: string, i: number): number {
  for (let j = i + 1; j < src.length; j++) {
    if (src[j] === "\\") j++;
    else if (src[j] === "]" && j > i + 1) return j + 1;
  }
  return src.length;
}

/**
 * The longest literal every match contains (at least `min` characters), or undefined. Returns
 * undefined for case-insensitive regexes, whose matches need not contain the text as written.
 */
export function requiredLiteral(re: RegExp, min = 3): string | undefined {
  if (re.flags.includes("i")) return undefined;
  const src = re.source;
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === "|") return undefined;
    if (c === "\\") {
      const next = src[i + 1] ?? "";
      i++;
      if (ESCAPED_LITERAL.test(next)) run += next;
      else end();
      continue;
    }
    if (c === "*" || c === "?" || c === "{") {
      // The character before is optional or repeated: it cannot be part of the run.
      run = run.slice(0, -1);
      end();
      if (c === "{") i = src.indexOf("}", i) === -1 ? src.length : src.indexOf("}", i);
      continue;
    }
    if (c === "+") {
      end();
      continue;
    }
    if (c === "(") {
      end();
      const after = skipGroup(src, i);
      if (after === -1) return undefined;
      i = after - 1;
      continue;
    }
    if (c === "[") {
      end();
      i = skipClass(src, i) - 1;
      continue;
    }
    if (c === "." || c === "^" || c === "$" || c === ")" || c === "]" || c === "}") {
      end();
      continue;
    }
    run += c;
  }
  end();
  return best.length >= min ? best : undefined;
}
