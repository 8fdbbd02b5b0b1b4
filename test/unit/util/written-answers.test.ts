import { describe, expect, it } from "vitest";
import { WrittenAnswers } from "../../../server/src/util/written-answers.js";

const tick = () => new Promise((r) => setImmediate(r));

describe("WrittenAnswers", () => {
  it.each([
    ["the answer to its request", { id: 7, result: {} }, true],
    ["an error answer to its request", { id: 7, error: {} }, true],
    ["another request's answer", { id: 8, result: {} }, false],
    ["a request of the same id (not an answer)", { id: 7, method: "session/update" }, false],
  ])("runs what waits after %s: %s", async (_name, message, runs) => {
    const answers = new WrittenAnswers();
    let ran = 0;
    answers.afterAnswerTo(7, () => ran++);
    answers.written(message);
    expect(ran).toBe(0); // never inside the write itself
    await tick();
    expect(ran).toBe(runs ? 1 : 0);
    answers.written(message);
    await tick();
    expect(ran).toBe(runs ? 1 : 0); // once
  });

  it("runs soon when the request has no id", async () => {
    const answers = new WrittenAnswers();
    let ran = false;
    answers.afterAnswerTo(undefined, () => (ran = true));
    await tick();
    expect(ran).toBe(true);
  });
});
