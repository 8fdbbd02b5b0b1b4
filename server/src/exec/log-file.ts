/**
 * Decoding a background job's log: where UTF-8 characters start and end in a slice of it (the
 * log itself is capped-log.ts). Raw bytes stay in the file (the user may want the colours);
 * readers decode and strip what they return.
 */

/** Index of the first character boundary in `buf` (skips UTF-8 continuation bytes at its start). */
export function firstCharBoundary(buf: Buffer): number {
  let i = 0;
  while (i < buf.length && i < 4 && (buf[i]! & 0xc0) === 0x80) i++;
  return i;
}

/** Length of `buf` without a UTF-8 character cut off at its end (still being written). */
export function completeUtf8Length(buf: Buffer): number {
  // Walk back over at most three continuation bytes to the lead byte of the last character.
  let i = buf.length - 1;
  while (i >= 0 && buf.length - i <= 4 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return buf.length;
  const lead = buf[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buf.length - i < need ? i : buf.length;
}
