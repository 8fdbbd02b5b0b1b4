/**
 * Reading the project's instruction files (rules, skills, workflows): UTF-8 text or a clear
 * reason why not, never a throw, so one bad file costs only itself.
 */
import { readFileSync } from "node:fs";

/** A file read as text, or why it could not be. */
export type TextRead = { ok: true; text: string } | { ok: false; reason: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Reads `file` as UTF-8; undefined when it does not exist (the usual case for optional files). */
export function readTextFile(file: string): TextRead | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    return { ok: false, reason: `${file} could not be read: ${(err as Error).message}` };
  }
  try {
    return { ok: true, text: UTF8.decode(bytes).replace(/^\uFEFF/, "") };
  } catch {
    return { ok: false, reason: `${file} is not UTF-8 text; it was left out.` };
  }
}

/** A rough token count (four characters a token): budgets need an estimate, not a tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
