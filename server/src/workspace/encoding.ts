/**
 * How text meets bytes: the BOM and line endings a file already has are kept when the agent
 * rewrites it, and binary files (and the images read_file may show) are told apart from text by
 * their first bytes, never by their names.
 */
import { isAscii } from "node:buffer";
import { convertEol, isAllCrlf } from "../edits/text.js";

/** The UTF-8 byte order mark. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Bytes looked at to decide whether a file is binary (git looks at the same amount). */
const SNIFF_BYTES = 8000;

/** Text decoded from a file, without its BOM. */
export interface DecodedText {
  text: string;
  bom: boolean;
}

/** Decodes UTF-8 bytes, taking off a BOM (remembered so a write can put it back). */
export function decodeText(bytes: Buffer): DecodedText {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  // Most source files are pure ASCII: checking that (SIMD) and copying bytes one to one is about
  // twice as fast as UTF-8 decoding, which matters for the multi-megabyte files agents edit.
  return { text: isAscii(body) ? body.toString("latin1") : body.toString("utf8"), bom };
}

/** True when the bytes look like a binary file: a NUL byte near the start, as git decides. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * The text to store when `next` replaces `previous` (both without BOM): a file whose lines all end
 * in CRLF keeps CRLF even where the new text brought bare LF (models write LF); a file with mixed
 * or LF endings gets the text as the engines produced it, since they keep each line's own ending.
 */
export function keepLineEndings(previous: string | undefined, next: string): string {
  if (previous === undefined || !isAllCrlf(previous)) return next;
  return /(^|[^\r])\n/.test(next) ? convertEol(next, "\r\n") : next;
}

/** The bytes to write: the text as UTF-8, behind a BOM when the file had one. */
export function encodeText(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, "utf8");
  return bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** An image type read_file can hand to a model. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** The image type of `bytes` from its magic number, or undefined when it is not one we show. */
export function sniffImage(bytes: Buffer): ImageType | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return "image/gif";
  }
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}
