/**
 * A large text written in slices (a 50 MB `create`): the file holds exactly the text's UTF-8
 * bytes (behind a BOM when asked), pairs cut by no slice, and the hash is the one read stamps
 * keep; the event loop gets turns while it is written.
 */
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeTextInSlices } from "../../../server/src/workspace/large-text-write.js";
import { hashBytes } from "../../../server/src/workspace/read-stamps.js";
import { tempProject } from "../../helpers/agent-setup.js";

async function written(text: string, bom: boolean): Promise<{ bytes: Buffer; hash: string; turns: number }> {
  const file = path.join(tempProject(), "out.txt");
  const handle = await open(file, "wx");
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  try {
    const hash = await writeTextInSlices(handle, text, bom);
    return { bytes: readFileSync(file), hash, turns };
  } finally {
    clearInterval(ticker);
    await handle.close();
  }
}

describe("writeTextInSlices", () => {
  // Every character a surrogate pair: wherever a slice ends, it would cut one.
  const big = "😀".repeat(5_000_001) + "é\n";

  it.each([false, true])("writes the text's exact bytes and hash (BOM %s)", async (bom) => {
    const { bytes, hash, turns } = await written(big, bom);
    const expected = Buffer.from(big, "utf8");
    expect(bytes.equals(bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), expected]) : expected)).toBe(true);
    expect(hash).toBe(hashBytes(expected));
    expect(turns).toBeGreaterThan(0);
  });

  it("writes a small text in one pass with the same hash", async () => {
    const { bytes, hash } = await written("small 😀\n", false);
    expect(bytes.toString("utf8")).toBe("small 😀\n");
    expect(hash).toBe(hashBytes(Buffer.from("small 😀\n")));
  });
});
