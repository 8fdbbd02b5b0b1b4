/** tokensAfterCompaction: after a compaction, in the same measure as the count before it. */
import { describe, expect, it } from "vitest";
import { estimateMessages, estimateTokens, tokensAfterCompaction } from "../../../server/src/agent/compaction/context-size.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";

const text = (chars: number): Message => ({ role: "user", content: [{ type: "text", text: "x".repeat(chars) }] });
const fixed = { system: "s".repeat(4000), tools: [] };

describe("tokensAfterCompaction", () => {
  const history = [text(40_000), text(40_000)];
  const checkpoint = [text(4_000)];
  const estimate = (messages: Message[]) => estimateTokens(fixed.system) + estimateTokens("[]") + estimateMessages(messages);
  const cases = [
    { name: "the estimate itself when the count is the estimate", before: estimate(history), expected: estimate(checkpoint) },
    { name: "scaled up when the provider counted twice the estimate", before: 2 * estimate(history), expected: 2 * estimate(checkpoint) },
    { name: "scaled down when the provider counted less", before: Math.round(estimate(history) / 2), expected: Math.round(estimate(checkpoint) / 2) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(Math.abs(tokensAfterCompaction(c.before, fixed, history, checkpoint) - c.expected)).toBeLessThanOrEqual(1);
    });
  }

  it("is never more than before when the summary is smaller than what it replaces", () => {
    expect(tokensAfterCompaction(70, fixed, history, checkpoint)).toBeLessThan(70);
  });
});
