/**
 * Where things are in a TOML text: table headers and key/value entries with their offsets, and
 * for arrays the offsets of the brackets and of every element. A TOML library gives values, not
 * positions; editing a user's file while keeping its comments and layout needs the positions.
 * The input must be valid TOML (parse it first): this follows valid syntax and does not judge it.
 */
import { parse } from "smol-toml";

/** A `[table]` or `[[array.of.tables]]` header. */
export interface TomlHeader {
  kind: "header";
  array: boolean;
  key: string[];
  start: number;
}

/** A value's extent; arrays also carry their brackets and elements. */
export interface TomlValue {
  start: number;
  /** Just past the value's last character. */
  end: number;
  array?: { open: number; close: number; elements: TomlValue[] };
}

/** A `key = value` line. */
export interface TomlEntry {
  kind: "entry";
  key: string[];
  start: number;
  value: TomlValue;
  /** The offset of the line break ending the entry's line (or the text's length). */
  lineEnd: number;
}

/** One top-level statement. */
export type TomlStatement = TomlHeader | TomlEntry;

/** The headers and entries of `text`, in order. */
export function scanToml(text: string): TomlStatement[] {
  return new Scanner(text).statements();
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const SCALAR_END = /[,\]}#\r\n]/;

class Scanner {
  private pos = 0;

  constructor(private readonly text: string) {}

  statements(): TomlStatement[] {
    const out: TomlStatement[] = [];
    for (;;) {
      this.skipBlankAndComments();
      if (this.pos >= this.text.length) return out;
      out.push(this.text[this.pos] === "[" ? this.header() : this.entry());
    }
  }

  private header(): TomlHeader {
    const start = this.pos;
    const array = this.text.startsWith("[[", this.pos);
    this.pos += array ? 2 : 1;
    const key = this.key();
    this.skipSpaces();
    this.expect(array ? "]]" : "]");
    return { kind: "header", array, key, start };
  }

  private entry(): TomlEntry {
    const start = this.pos;
    const key = this.key();
    this.skipSpaces();
    this.expect("=");
    this.skipSpaces();
    const value = this.value();
    const newline = this.text.indexOf("\n", value.end);
    const lineEnd = newline < 0 ? this.text.length : newline > 0 && this.text[newline - 1] === "\r" ? newline - 1 : newline;
    this.pos = lineEnd;
    return { kind: "entry", key, start, value, lineEnd };
  }

  /** A dotted key: bare or quoted parts. */
  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.text[this.pos];
      if (c === '"' || c === "'") {
        const { start, end } = this.string();
        // The TOML library decodes the quoted key's escapes exactly as TOML defines them.
        parts.push(parse(`k = ${this.text.slice(start, end)}`).k as string);
      } else {
        const from = this.pos;
        while (this.pos < this.text.length && BARE_KEY.test(this.text[this.pos]!)) this.pos++;
        if (from === this.pos) this.fail("a key");
        parts.push(this.text.slice(from, this.pos));
      }
      this.skipSpaces();
      if (this.text[this.pos] !== ".") return parts;
      this.pos++;
    }
  }

  private value(): TomlValue {
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") return this.array();
    if (c === "{") return this.inlineTable();
    const start = this.pos;
    while (this.pos < this.text.length && !SCALAR_END.test(this.text[this.pos]!)) this.pos++;
    // A date-time may hold a space; white space before what ends the scalar is not part of it.
    let end = this.pos;
    while (end > start && /[ \t]/.test(this.text[end - 1]!)) end--;
    if (end === start) this.fail("a value");
    return { start, end };
  }

  private string(): TomlValue {
    const start = this.pos;
    const quote = this.text[this.pos]!;
    const multi = this.text.startsWith(quote.repeat(3), this.pos);
    const delimiter = multi ? quote.repeat(3) : quote;
    this.pos += delimiter.length;
    for (;;) {
      if (this.pos >= this.text.length) this.fail(`the closing ${delimiter}`);
      if (quote === '"' && this.text[this.pos] === "\\") this.pos += 2;
      else if (this.text.startsWith(delimiter, this.pos)) break;
      else this.pos++;
    }
    this.pos += delimiter.length;
    // Up to two quotes may end a multi-line string's content right before its delimiter.
    for (let extra = 0; multi && extra < 2 && this.text[this.pos] === quote; extra++) this.pos++;
    return { start, end: this.pos };
  }

  private array(): TomlValue {
    const open = this.pos++;
    const elements: TomlValue[] = [];
    for (;;) {
      this.skipBlankAndComments();
      if (this.text[this.pos] === "]") break;
      elements.push(this.value());
      this.skipBlankAndComments();
      if (this.text[this.pos] === ",") this.pos++;
      else if (this.text[this.pos] !== "]") this.fail("`,` or `]`");
    }
    const close = this.pos++;
    return { start: open, end: this.pos, array: { open, close, elements } };
  }

  private inlineTable(): TomlValue {
    const start = this.pos++;
    for (;;) {
      this.skipBlankAndComments();
      if (this.text[this.pos] === "}") break;
      this.key();
      this.skipSpaces();
      this.expect("=");
      this.skipSpaces();
      this.value();
      this.skipBlankAndComments();
      if (this.text[this.pos] === ",") this.pos++;
    }
    this.pos++;
    return { start, end: this.pos };
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos++;
  }

  /** Skips white space, line breaks and comments. */
  private skipBlankAndComments(): void {
    for (;;) {
      while (this.pos < this.text.length && /[ \t\r\n]/.test(this.text[this.pos]!)) this.pos++;
      if (this.text[this.pos] !== "#") return;
      while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
    }
  }

  private expect(token: string): void {
    if (!this.text.startsWith(token, this.pos)) this.fail(`\`${token}\``);
    this.pos += token.length;
  }

  private fail(wanted: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    throw new Error(`cannot follow the TOML at line ${line}: expected ${wanted}`);
  }
}
