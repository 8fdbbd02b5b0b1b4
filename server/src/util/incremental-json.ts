/**
 * JSON parsed as it streams in, a chunk at a time: a model's tool input arrives as thousands of
 * `partial_json` deltas, and a 50 MB `create` parsed in one JSON.parse at the end holds the event
 * loop for a tenth of a second or more (and first copies the whole accumulated text). Parsed as
 * the deltas come, each costs about as much as its own length, and the end only joins the parts.
 *
 * The result is the same as JSON.parse of all the text, and it fails where JSON.parse would:
 * strings, numbers and literals are decoded by JSON.parse itself (a string's text a segment at a
 * time, never cut inside an escape); only the structure (brackets, colons, commas) is ours.
 */

type Frame =
  | { kind: "object"; value: Record<string, unknown>; key: string; expect: "first" | "key" | "colon" | "value" | "comma" }
  | { kind: "array"; value: unknown[]; expect: "first" | "value" | "comma" };

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
/** Characters a number or a literal (true, false, null) is made of, as far as finding its end goes. */
const TOKEN = /[^\s"{}[\]:,]+/y;

/** Consecutive backslashes right before `at`, not counting any before `from`. */
function backslashesBefore(text: string, at: number, from: number): number {
  let n = 0;
  while (at - n - 1 >= from && text.charCodeAt(at - n - 1) === 92) n++;
  return n;
}

/** Where a string's closing quote is in `text` from `from` (one no backslash escapes), or -1. */
function closingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    if (backslashesBefore(text, at, from) % 2 === 0) return at;
  }
  return -1;
}

/** How much of a string's text (from `from` to the end) is whole escapes: the rest waits for more. */
function wholeEscapesEnd(text: string, from: number): number {
  const last = text.lastIndexOf("\\");
  if (last < from || last < text.length - 6) return text.length;
  // The last backslash starts an escape when the run it ends has an odd length.
  if (backslashesBefore(text, last, from) % 2 === 1) return text.length;
  const length = text[last + 1] === "u" ? 6 : 2;
  return last + length > text.length ? last : text.length;
}

/** Parses JSON text pushed in pieces; see the file's comment. */
export class IncrementalJson {
  private readonly stack: Frame[] = [];
  private root: { value: unknown } | undefined;
  /** The string being read: its decoded parts, and whether it is an object's key. */
  private string: { parts: string[]; key: boolean } | undefined;
  /** Text held back: the unfinished end of a number, a literal or an escape. */
  private pending = "";
  private error: SyntaxError | undefined;
  /** Whether anything but whitespace (as String.prototype.trim counts it) was pushed. */
  sawText = false;

  /** Takes the next piece of the text. */
  push(chunk: string): void {
    this.sawText ||= /\S/.test(chunk);
    if (this.error || chunk === "") return;
    const text = this.pending + chunk;
    this.pending = "";
    try {
      this.read(text, false);
    } catch (err) {
      this.error = err instanceof SyntaxError ? err : new SyntaxError(String(err));
    }
  }

  /** The value of all the text pushed; throws a SyntaxError where JSON.parse of it would. */
  end(): unknown {
    if (!this.error && this.pending) {
      const text = this.pending;
      this.pending = "";
      try {
        this.read(text, true);
      } catch (err) {
        this.error = err instanceof SyntaxError ? err : new SyntaxError(String(err));
      }
    }
    if (this.error) throw this.error;
    if (this.string || this.pending || this.stack.length || !this.root) throw new SyntaxError("Unexpected end of JSON input");
    return this.root.value;
  }

  private read(text: string, final: boolean): void {
    let i = 0;
    while (i < text.length) {
      if (this.string) {
        i = this.readString(text, i);
        if (i < 0) return;
        continue;
      }
      const c = text[i]!;
      if (WHITESPACE.has(c)) {
        i++;
        continue;
      }
      if (c === '"') this.openString();
      else if (c === "{" || c === "[") this.open(c);
      else if (c === "}" || c === "]") this.close(c);
      else if (c === ":" || c === ",") this.separator(c);
      else {
        TOKEN.lastIndex = i;
        const token = TOKEN.exec(text)![0];
        if (i + token.length === text.length && !final) {
          this.pending = token;
          return;
        }
        this.value(JSON.parse(token));
        i += token.length;
        continue;
      }
      i++;
    }
  }

  /** Reads string text from `i`; returns where to go on, or -1 when the text ran out inside it. */
  private readString(text: string, i: number): number {
    const string = this.string!;
    const quote = closingQuote(text, i);
    const end = quote === -1 ? wholeEscapesEnd(text, i) : quote;
    if (end > i) string.parts.push(JSON.parse(`"${text.slice(i, end)}"`) as string);
    if (quote === -1) {
      this.pending = text.slice(end);
      return -1;
    }
    this.string = undefined;
    const value = string.parts.length === 1 ? string.parts[0]! : string.parts.join("");
    if (string.key) {
      const frame = this.stack[this.stack.length - 1] as Extract<Frame, { kind: "object" }>;
      frame.key = value;
      frame.expect = "colon";
    } else this.value(value);
    return quote + 1;
  }

  private openString(): void {
    const top = this.stack[this.stack.length - 1];
    const key = top?.kind === "object" && (top.expect === "first" || top.expect === "key");
    if (!key) this.expectValue();
    this.string = { parts: [], key };
  }

  private open(c: "{" | "["): void {
    this.expectValue();
    this.stack.push(c === "{" ? { kind: "object", value: {}, key: "", expect: "first" } : { kind: "array", value: [], expect: "first" });
  }

  private close(c: "}" | "]"): void {
    const top = this.stack[this.stack.length - 1];
    const kind = c === "}" ? "object" : "array";
    if (top?.kind !== kind || (top.expect !== "first" && top.expect !== "comma")) throw new SyntaxError(`Unexpected token '${c}' in JSON`);
    this.stack.pop();
    this.place(top.value);
  }

  private separator(c: ":" | ","): void {
    const top = this.stack[this.stack.length - 1];
    if (c === ":" && top?.kind === "object" && top.expect === "colon") top.expect = "value";
    else if (c === "," && top?.expect === "comma") top.expect = top.kind === "object" ? "key" : "value";
    else throw new SyntaxError(`Unexpected token '${c}' in JSON`);
  }

  /** Throws unless a value may come here. */
  private expectValue(): void {
    const top = this.stack[this.stack.length - 1];
    const ok = top ? (top.kind === "array" ? top.expect !== "comma" : top.expect === "value") : !this.root;
    if (!ok) throw new SyntaxError("Unexpected value in JSON");
  }

  /** A whole scalar value read. */
  private value(v: unknown): void {
    this.expectValue();
    this.place(v);
  }

  /** Puts a finished value where it belongs. */
  private place(v: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) this.root = { value: v };
    else if (top.kind === "array") {
      top.value.push(v);
      top.expect = "comma";
    } else {
      // As JSON.parse does: "__proto__" is an own property, never the object's prototype.
      Object.defineProperty(top.value, top.key, { value: v, writable: true, enumerable: true, configurable: true });
      top.expect = "comma";
    }
  }
}
