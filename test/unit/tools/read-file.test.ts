import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { readFileTool } from "../../../server/src/tools/files/read-file.js";
import { makeHarness, type ToolHarness } from "./context.js";

let h: ToolHarness;
afterEach(() => h?.dispose());

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const PNG = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } }).png().toBuffer();

/** A noisy photo-like picture: it does not compress, so it needs both scaling and re-encoding. */
async function bigNoise(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
}

describe("read_file", () => {
  it("numbers lines like cat -n and reads a range", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "alpha\nbeta\ngamma\ndelta\n");
    const all = await h.run(readFileTool, { path: "a.txt" });
    expect(all.isError).toBe(false);
    expect(all.text).toBe("     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tdelta");
    const some = await h.run(readFileTool, { path: "a.txt", start_line: 2, line_count: 2 });
    expect(some.text).toBe("     2\tbeta\n     3\tgamma\n[Showing lines 2-3 of 4. Read on with start_line=4.]");
    const range = await h.run(readFileTool, { path: "a.txt", view_range: [3, -1] });
    expect(range.text).toBe("     3\tgamma\n     4\tdelta");
  });

  it("pages a long file with a note saying how to read on", async () => {
    h = makeHarness();
    writeFileSync(h.at("long.txt"), Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"));
    const r = await h.run(readFileTool, { path: "long.txt" });
    expect(r.text.split("\n")).toHaveLength(2001);
    expect(r.text).toContain("  2000\tline 2000\n[Showing lines 1-2000 of 3000. Read on with start_line=2001.]");
  });

  it("stops at the output budget, with the same note", async () => {
    h = makeHarness({ outputBudget: 2000 });
    writeFileSync(h.at("wide.txt"), Array.from({ length: 100 }, () => "x".repeat(80)).join("\n"));
    const r = await h.run(readFileTool, { path: "wide.txt" });
    expect(r.text.length).toBeLessThan(2000);
    expect(r.text).toMatch(/\[Showing lines 1-\d+ of 100\. Read on with start_line=\d+\.\]$/);
  });

  it("reads the open buffer, unsaved text included, and says so", async () => {
    h = makeHarness();
    writeFileSync(h.at("o.ts"), "saved\n");
    h.editor.open(h.at("o.ts"), "unsaved\n");
    const r = await h.run(readFileTool, { path: "o.ts" });
    expect(r.text).toBe("     1\tunsaved\n[From the editor's buffer, which has unsaved changes.]");
  });

  it("returns an image by its magic bytes, whatever its name", async () => {
    h = makeHarness();
    writeFileSync(h.at("picture.dat"), PNG);
    const r = await h.run(readFileTool, { path: "picture.dat" });
    expect(r.content[0]).toEqual({ type: "text", text: `[image/png, ${PNG.length} bytes, 40x30]` });
    // An image that already fits goes out byte for byte.
    expect(r.content[1]).toEqual({ type: "image", mediaType: "image/png", data: PNG.toString("base64") });
  });

  it("fits a large image to 1568 px and 1.15 megapixels, within 3.75 MiB", async () => {
    h = makeHarness();
    const big = await bigNoise(3000, 2000);
    expect(big.length).toBeGreaterThan(3.75 * 1024 * 1024);
    writeFileSync(h.at("photo.png"), big);
    const r = await h.run(readFileTool, { path: "photo.png" });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^\[image\/png, \d+ bytes, 1313x875 \(scaled from 3000x2000\)/);
    const image = r.content[1] as { mediaType: string; data: string };
    const bytes = Buffer.from(image.data, "base64");
    expect(bytes.length).toBeLessThanOrEqual(3.75 * 1024 * 1024);
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1313, 875]);
    expect(`image/${meta.format}`).toBe(image.mediaType);
  });

  it("refuses an image it cannot decode and other binary files", async () => {
    h = makeHarness();
    writeFileSync(h.at("broken.png"), Buffer.concat([PNG_MAGIC, Buffer.alloc(100)]));
    writeFileSync(h.at("blob.bin"), Buffer.from([1, 2, 0, 3]));
    const broken = await h.run(readFileTool, { path: "broken.png" });
    expect(broken.isError).toBe(true);
    expect(broken.text).toMatch(/^broken.png looks like a image\/png image but could not be decoded/);
    const blob = await h.run(readFileTool, { path: "blob.bin" });
    expect(blob.text).toBe("blob.bin is a binary file (4 bytes); read_file shows text files and PNG, JPEG, GIF or WebP images only.");
  });

  it("explains a missing file, a folder, a line past the end and a bad range", async () => {
    h = makeHarness();
    mkdirSync(h.at("dir"));
    writeFileSync(h.at("a.txt"), "a\n");
    expect((await h.run(readFileTool, { path: "nope.txt" })).text).toBe("nope.txt does not exist.");
    expect((await h.run(readFileTool, { path: "dir" })).text).toBe("dir is a directory; use list_files to see what is in it.");
    expect((await h.run(readFileTool, { path: "a.txt", start_line: 5 })).text).toBe("start_line 5 is past the end of the file (1 lines).");
    expect((await h.run(readFileTool, { path: "a.txt", view_range: [3, 2] })).isError).toBe(true);
    expect((await h.run(readFileTool, { path: "a.txt", start_line: 0 })).text).toContain("start_line");
  });

  it("asks the gate before reading outside the project", async () => {
    h = makeHarness();
    h.answer = () => ({ allowed: false, reason: "outside" });
    const r = await h.run(readFileTool, { path: "/etc/hostname" });
    expect(r.text).toBe("Reading /etc/hostname was not allowed: outside");
    expect(h.asked).toEqual([{ kind: "external_path", path: "/etc/hostname", access: "read" }]);
  });

  it("counts as a read for stale-read protection", async () => {
    h = makeHarness();
    writeFileSync(h.at("a.txt"), "v1\n");
    await h.run(readFileTool, { path: "a.txt" });
    writeFileSync(h.at("a.txt"), "v2, changed by someone else\n");
    await expect(
      h.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "x" }] }, { sessionId: "s1" }),
    ).rejects.toThrow("changed on disk since you last read it");
  });
});
