/** raceQuestion: the message box and the chat-file block asked at once; the first answer wins. */
import { describe, expect, it } from "vitest";
import { ANSWERED_IN_BOX, raceQuestion } from "../../../server/src/lsp/question-race.js";
import type { PlainAnswer } from "../../../server/src/lsp/prompts.js";

/** A prompt the test settles, recording why it was withdrawn. */
function prompt<T>() {
  let settle!: (value: T) => void;
  const seen: { withdrawn?: unknown } = {};
  const start = (signal: AbortSignal) => {
    signal.addEventListener("abort", () => (seen.withdrawn = signal.reason ?? "aborted"), { once: true });
    return new Promise<T>((resolve) => (settle = resolve));
  };
  return { start, settle: (v: T) => settle(v), seen };
}

describe("raceQuestion", () => {
  it("the box first: its answer, the block withdrawn with the note", async () => {
    const box = prompt<PlainAnswer<{ answer?: string }>>();
    const block = prompt<string | undefined>();
    const race = raceQuestion({ box: box.start, block: block.start }, new AbortController().signal);
    box.settle({ answer: "SQLite" });
    expect(await race).toEqual({ answer: "SQLite", from: "box" });
    expect(block.seen.withdrawn).toBe(ANSWERED_IN_BOX);
  });

  it("the block first: its answer, the box withdrawn", async () => {
    const box = prompt<PlainAnswer<{ answer?: string }>>();
    const block = prompt<string | undefined>();
    const race = raceQuestion({ box: box.start, block: block.start }, new AbortController().signal);
    block.settle("Postgres, on port 5433");
    expect(await race).toEqual({ answer: "Postgres, on port 5433", from: "block" });
    expect(box.seen.withdrawn).toBeDefined();
  });

  it("a box the client cannot show leaves the block waiting; the result says so beside the block's answer", async () => {
    const box = prompt<PlainAnswer<{ answer?: string }>>();
    const block = prompt<string | undefined>();
    const race = raceQuestion({ box: box.start, block: block.start }, new AbortController().signal);
    box.settle({ unsupported: true });
    await Promise.resolve();
    expect(block.seen.withdrawn).toBeUndefined();
    block.settle("SQLite");
    expect(await race).toEqual({ answer: "SQLite", from: "block", unsupported: true });
  });

  it("no answer from either: none; the turn's cancel withdraws both", async () => {
    const box = prompt<PlainAnswer<{ answer?: string }>>();
    const block = prompt<string | undefined>();
    const turn = new AbortController();
    const race = raceQuestion({ box: box.start, block: block.start }, turn.signal);
    turn.abort();
    expect(box.seen.withdrawn).toBeDefined();
    expect(block.seen.withdrawn).toBeDefined();
    box.settle({});
    block.settle(undefined);
    expect(await race).toEqual({});
  });
});
