/**
 * Stale-read stamps: a change to a file's text since the session read it is stale; a touch, or
 * only its line endings shown otherwise (a CRLF file read from disk, then opened in an editor
 * that shows it with LF lines), is not.
 */
import { describe, expect, it } from "vitest";
import { hashBytes, ReadStamps, type CurrentText } from "../../../server/src/workspace/read-stamps.js";

const buffer = (text: string): CurrentText => ({ text, source: "buffer" });
const disk = (text: string, mtimeMs = 1, size = text.length): CurrentText => ({ text, source: "disk", mtimeMs, size });

describe("ReadStamps.isStale", () => {
  const cases: { name: string; read: CurrentText; now: CurrentText; stale: boolean }[] = [
    { name: "the same text", read: buffer("a\nb\n"), now: buffer("a\nb\n"), stale: false },
    { name: "a touched file (new mtime, same text)", read: disk("a\nb\n", 1), now: disk("a\nb\n", 2), stale: false },
    { name: "a CRLF file read from disk, now open with LF lines", read: disk("a\r\nb\r\n"), now: buffer("a\nb\n"), stale: false },
    { name: "an LF buffer read, the file now closed and CRLF on disk", read: buffer("a\nb\n"), now: disk("a\r\nb\r\n"), stale: false },
    { name: "mixed endings read, all LF now", read: disk("a\r\nb\nc\r\n"), now: buffer("a\nb\nc\n"), stale: false },
    { name: "a changed line", read: buffer("a\nb\n"), now: buffer("a\nB\n"), stale: true },
    { name: "a changed line and other endings", read: disk("a\r\nb\r\n"), now: buffer("a\nB\n"), stale: true },
    { name: "a lone CR is a character, not an ending", read: buffer("a\rb"), now: buffer("a\nb"), stale: true },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.stale ? "stale" : "not stale"}`, () => {
      const stamps = new ReadStamps();
      stamps.record("s", "/p/f", c.read);
      expect(stamps.isStale("s", "/p/f", c.now)).toBe(c.stale);
    });
  }

  it("a stamp recorded with the hash of the bytes written takes line endings alike", () => {
    const stamps = new ReadStamps();
    const text = "a\r\nb\r\n";
    stamps.record("s", "/p/f", disk(text), hashBytes(Buffer.from(text, "utf8")));
    expect(stamps.isStale("s", "/p/f", buffer("a\nb\n"))).toBe(false);
    expect(stamps.isStale("s", "/p/f", buffer("a\nc\n"))).toBe(true);
  });

  it("a file never read is not stale, and each session has its own stamps", () => {
    const stamps = new ReadStamps();
    stamps.record("s", "/p/f", buffer("a\n"));
    expect(stamps.isStale("other", "/p/f", buffer("b\n"))).toBe(false);
    expect(stamps.isStale("s", "/p/g", buffer("b\n"))).toBe(false);
  });
});
