/**
 * ANSI escape removal. Command output goes to a model, not a terminal: colour codes, cursor
 * moves, window titles and hyperlinks are noise that costs tokens and hides the text.
 */

// String sequences (OSC, DCS, SOS, PM, APC): introducer, a body without another escape, then BEL
// or ST. The body excludes ESC so an unterminated OSC cannot swallow the text up to a later one.
const STRING_SEQUENCE = String.raw`(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)`;
// CSI (ECMA-48): introducer, parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, a final
// byte 0x40-0x7E. Covers SGR colours, cursor moves, erase line, private modes (`?25l`).
const CSI_SEQUENCE = String.raw`(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]`;
// Every other escape: ESC, intermediates, one final byte (charset selection `ESC(B`, keypad
// modes `ESC=`, save/restore cursor `ESC7`, reset `ESCc`). Last, so the longer forms win.
const OTHER_ESCAPE = String.raw`\x1b[ -/]*[0-~]`;

const ANSI_PATTERN = new RegExp(`${STRING_SEQUENCE}|${CSI_SEQUENCE}|${OTHER_ESCAPE}`, "g");

/** `text` without ANSI/VT escape sequences. */
export function stripAnsi(text: string): string {
  // Most output has no escapes at all; skip the regex pass for it.
  if (!/[\x1b\x90\x98\x9b\x9d\x9e\x9f]/.test(text)) return text;
  return text.replace(ANSI_PATTERN, "");
}

/**
 * Where an escape sequence that is cut off at the end of `text` begins, or -1. Output arrives in
 * chunks, and a sequence split across two chunks would otherwise be half stripped, half shown.
 */
export function incompleteEscapeStart(text: string): number {
  const esc = text.lastIndexOf("\x1b");
  // Sequences are short; a lone ESC far back is garbage, not something still arriving.
  if (esc < 0 || text.length - esc > 4096) return -1;
  const rest = text.slice(esc);
  if (rest.length === 1) return esc;
  const kind = rest[1]!;
  if (kind === "[") return /^\x1b\[[0-?]*[ -/]*$/.test(rest) ? esc : -1;
  // The last ESC opens a string sequence, so no ST follows it: complete only if BEL ended it.
  if ("]PX^_".includes(kind)) return /[\x07\x9c]/.test(rest) ? -1 : esc;
  return /^\x1b[ -/]*$/.test(rest) ? esc : -1;
}

/**
 * Strips a stream chunk by chunk, holding back an escape sequence cut off at a chunk's end until
 * the rest of it arrives.
 */
export class AnsiStreamStripper {
  private carry = "";

  /** The stripped text of `chunk` that is final (a cut-off sequence at its end is held back). */
  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = "";
    const cut = incompleteEscapeStart(text);
    if (cut >= 0) {
      this.carry = text.slice(cut);
      text = text.slice(0, cut);
    }
    return stripAnsi(text);
  }

  /** Whatever is held back, stripped as far as it goes (the stream ended). */
  flush(): string {
    const text = stripAnsi(this.carry);
    this.carry = "";
    return text;
  }
}
