/**
 * Fair scheduling (docs/protocol.md, docs/acp.md): a burst of 10,000 prompts on one busy session
 * does not hold up listing the sessions, another session's request or a cancel written right
 * behind it. Counted, not timed: each cheap answer must come while most of the burst is still
 * unanswered (in arrival order it would come after all 10,000).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { ACP_FRONT, answered, LSP_FRONT, startFlooded, type FloodFront } from "../helpers/flood.js";

const BURST = 10_000;

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
});

describe.each([LSP_FRONT, ACP_FRONT])("a burst of prompts on one session ($name)", (front: FloodFront) => {
  /** How many of the burst's prompts were answered before `cheap` was. */
  async function answeredBefore(cheap: (f: Awaited<ReturnType<typeof startFlooded>>) => Promise<unknown>) {
    const f = await startFlooded(front, fake);
    try {
      const all = f.burst(BURST);
      await cheap(f);
      const before = f.answers();
      const answers = await all;
      expect(answers).toHaveLength(BURST);
      return { before, answers };
    } finally {
      f.dispose();
    }
  }

  it("lets the session list through", async () => {
    const { before, answers } = await answeredBefore((f) => answered(f.c.request(...front.list(f.root))));
    expect(before).toBeLessThan(BURST / 2);
    // The burst itself is refused: its session is busy.
    expect(answers.every((a) => a.error)).toBe(true);
  }, 180_000);

  it("lets another session's request through", async () => {
    const { before } = await answeredBefore((f) => answered(f.c.request(...front.setMode(f.other, "ask"))));
    expect(before).toBeLessThan(BURST / 2);
  }, 180_000);

  it("lets a cancel through, and no prompt sent before it outlives it", async () => {
    const { before, answers } = await answeredBefore(async (f) => {
      f.c.notify(...front.cancel(f.busy));
      expect((await f.turn).result?.stopReason).toBe("cancelled");
    });
    expect(before).toBeLessThan(BURST / 2);
    // Prompts the cancel overtook are refused, or start a turn that ends at once or is cancelled
    // by the cancel's second run after them: none runs on.
    for (const a of answers) if (!a.error) expect(["cancelled", "error"]).toContain(a.result?.stopReason);
  }, 180_000);
});
