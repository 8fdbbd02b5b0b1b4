/**
 * Megabyte strings (a model's 50 MB `create`) carried past an SDK that would copy, scan or
 * re-serialise them in one go. Such an SDK (`@google/genai`) JSON.stringifies the whole request
 * and JSON.parses every event itself, each a stretch of a tenth of a second or more in which no
 * other request is answered. Here each large string is swapped for a short placeholder before the
 * SDK sees it: the request it serialises is small, and our fetch splices the strings' JSON back
 * into the body a piece at a time (the bytes are the ones the SDK would have sent); an event read
 * off the wire is parsed by us as it arrives, handed to the SDK with placeholders, and the strings
 * are put back into what the SDK returns.
 */
import { randomUUID } from "node:crypto";
import { breather } from "../util/breathe.js";
import { jsonPieces } from "../util/json-pieces.js";

/** Strings at least this long (in characters) travel as placeholders. */
export const LARGE_STRING_CHARS = 1 << 20;

/** The placeholders of one model request and the strings they stand for. */
export class LargeStrings {
  private readonly prefix = `agent-lsp-large-string:${randomUUID()}:`;
  private readonly strings = new Map<string, string>();

  constructor(private readonly minChars = LARGE_STRING_CHARS) {}

  /** Whether any string is held. */
  get size(): number {
    return this.strings.size;
  }

  /** `value` with each large string in it replaced by a placeholder (copied only where one was). */
  hide<T>(value: T): T {
    if (typeof value === "string") return (value.length >= this.minChars ? this.placeholder(value) : value) as T;
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      const items = value.map((item) => this.hide(item));
      return (items.some((item, i) => item !== value[i]) ? items : value) as T;
    }
    if (!isPlain(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      const hidden = this.hide(v);
      if (hidden === v) continue;
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = hidden;
    }
    return (copy ?? value) as T;
  }

  /** Puts the strings back in place of their placeholders, in `value` itself (which it returns). */
  show<T>(value: T): T {
    if (this.strings.size === 0) return value;
    return this.restore(value) as T;
  }

  private restore(value: unknown): unknown {
    if (typeof value === "string") return this.strings.get(value) ?? value;
    if (value === null || typeof value !== "object") return value;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      const shown = this.restore(v);
      if (shown !== v) record[key] = shown;
    }
    return value;
  }

  /**
   * The request body `text` (JSON the SDK wrote with placeholders in it) as UTF-8 with each
   * placeholder's JSON replaced by its string's, built a piece at a time; undefined when `text`
   * holds no placeholder.
   */
  async body(text: string, type = "application/json"): Promise<Blob | undefined> {
    if (this.strings.size === 0) return undefined;
    const parts: Buffer[] = [];
    const pause = breather(5);
    let from = 0;
    for (let at = text.indexOf(`"${this.prefix}`); at !== -1; at = text.indexOf(`"${this.prefix}`, from)) {
      const end = text.indexOf('"', at + 1);
      const original = end === -1 ? undefined : this.strings.get(text.slice(at + 1, end));
      if (original === undefined) {
        parts.push(Buffer.from(text.slice(from, at + 1), "utf8"));
        from = at + 1;
        continue;
      }
      parts.push(Buffer.from(text.slice(from, at), "utf8"));
      for (const piece of jsonPieces(original)) {
        parts.push(Buffer.from(piece, "utf8"));
        await pause();
      }
      from = end + 1;
    }
    if (parts.length === 0) return undefined;
    parts.push(Buffer.from(text.slice(from), "utf8"));
    return new Blob(parts, { type });
  }

  private placeholder(value: string): string {
    const key = `${this.prefix}${this.strings.size}`;
    this.strings.set(key, value);
    return key;
  }
}

/** A JSON object literal (not a class instance, whose JSON a toJSON may decide). */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
