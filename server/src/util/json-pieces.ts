/**
 * The JSON text of a large value in pieces of bounded size, so a 50 MB record (a model's `create`
 * of a huge file) can be encoded and written a piece at a time, the event loop getting turns in
 * between, instead of one JSON.stringify and one 50 MB buffer that hold every other request.
 * Joined, the pieces are exactly `JSON.stringify(value)`.
 */

/**
 * Characters of string data in `value` (strings' lengths and keys), counted only until past
 * `stopAt`: a cheap estimate of its JSON size, since a string's length costs nothing to read.
 */
export function stringChars(value: unknown, stopAt = Infinity): number {
  let chars = 0;
  const visit = (v: unknown): void => {
    if (chars > stopAt) return;
    if (typeof v === "string") chars += v.length;
    else if (Array.isArray(v)) for (const item of v) visit(item);
    else if (v !== null && typeof v === "object") {
      for (const key of Object.keys(v)) {
        chars += key.length;
        visit((v as Record<string, unknown>)[key]);
      }
    }
  };
  visit(value);
  return chars;
}

/**
 * A string whose text is the JSON of `value` (a tool call's `arguments` in the chat completions
 * API), serialised only when it is written: by {@link jsonPieces} a piece at a time, by
 * JSON.stringify (through toJSON) as the string it stands for. Holding the value instead of its
 * text spares a synchronous JSON.stringify of a 50 MB tool input each time a request is built.
 */
export class JsonText {
  constructor(readonly value: unknown) {}

  toJSON(): string {
    return JSON.stringify(this.value) ?? "";
  }
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}

/** A long string's JSON, in slices of about `size` characters (never splitting a surrogate pair). */
function* stringPieces(text: string, size: number): Generator<string> {
  yield '"';
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + size);
    // A pair cut in two would be written as two escaped halves: not the bytes JSON.stringify writes.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += end - 1 > at ? -1 : 1;
    yield JSON.stringify(text.slice(at, end)).slice(1, -1);
    at = end;
  }
  yield '"';
}

/** A {@link JsonText}'s JSON (a string holding the value's JSON text), in pieces. */
function* jsonTextPieces(text: JsonText, size: number): Generator<string> {
  yield '"';
  // The pieces never split a surrogate pair, so each escapes as it would inside the whole.
  for (const piece of jsonPieces(text.value, size)) yield JSON.stringify(piece).slice(1, -1);
  yield '"';
}

/** The JSON text of `value` as many small strings (see {@link jsonPieces}). */
function* jsonParts(value: unknown, size: number): Generator<string> {
  if (typeof value === "string" && value.length > size) return yield* stringPieces(value, size);
  if (value instanceof JsonText && stringChars(value.value, size) > size) return yield* jsonTextPieces(value, size);
  const plain = value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function";
  if (plain || stringChars(value, size) <= size) {
    const text = JSON.stringify(value);
    if (text !== undefined) yield text;
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      yield* skipped(value[i]) ? ["null"] : jsonParts(value[i], size);
    }
    return yield "]";
  }
  yield "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (skipped(v)) continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonParts(v, size);
  }
  yield "}";
}

/**
 * `JSON.stringify(value)` in pieces of about `size` characters (a piece may be a little longer).
 * Each piece costs about as much as stringifying `size` characters, so a caller that yields
 * between pieces never holds the event loop for long. For plain data (no toJSON but a Date's,
 * no cycles), the pieces joined equal `JSON.stringify(value)`.
 */
export function* jsonPieces(value: unknown, size = 1 << 20): Generator<string> {
  let parts: string[] = [];
  let length = 0;
  for (const part of jsonParts(value, size)) {
    parts.push(part);
    length += part.length;
    if (length < size) continue;
    yield parts.join("");
    parts = [];
    length = 0;
  }
  if (parts.length) yield parts.join("");
}
