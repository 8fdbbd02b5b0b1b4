/**
 * Memory given back after a large message: a full collection frees garbage outside the JS heap
 * (the buffers a 50 MB create leaves) that an idle process would otherwise keep.
 */
import { describe, expect, it } from "vitest";
import { collectGarbage, LARGE_GROWTH, releaseAfterLargeWork } from "../../../server/src/util/release-memory.js";

const external = () => process.memoryUsage().arrayBuffers;

describe("collectGarbage", () => {
  it("frees buffers nothing holds any more", () => {
    let garbage: Buffer[] | undefined = Array.from({ length: 20 }, () => Buffer.alloc(4 << 20, 1));
    const held = external();
    garbage = undefined;
    expect(garbage).toBeUndefined();
    expect(collectGarbage()).toBe(true);
    expect(held - external()).toBeGreaterThan(60 << 20);
  });
});

describe("releaseAfterLargeWork", () => {
  it("collects shortly after work that grew the process by more than the threshold", async () => {
    let garbage: Buffer[] | undefined = Array.from({ length: 20 }, () => Buffer.alloc(4 << 20, 1));
    const held = external();
    garbage = undefined;
    expect(garbage).toBeUndefined();
    releaseAfterLargeWork(process.memoryUsage.rss() - LARGE_GROWTH - 1);
    // Well before V8 would collect an idle process by itself (15 s or more).
    const deadline = Date.now() + 5_000;
    while (held - external() < 60 << 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(held - external()).toBeGreaterThan(60 << 20);
  });
});
