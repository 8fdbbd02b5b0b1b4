/**
 * A model stream that goes silent must not hold a turn (and the editor) forever: after
 * `[retry] stream_idle_timeout_s` of nothing on the wire it counts as a broken connection,
 * is retried while nothing of it was shown, and then ends with a clear error. Keep-alive pings
 * are activity. Every provider goes through the same watch, so every provider is tested.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness, type FakeApi } from "../helpers/agent-setup.js";

// Long enough that a loaded machine's event-loop stalls never pass for silence (pings every 100 ms).
const IDLE_S = 1;
const SILENT = `the model's stream sent nothing for ${IDLE_S} s`;
const RETRY = { max_retries: 1, initial_delay_ms: 5, max_delay_ms: 20, stream_idle_timeout_s: IDLE_S };

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

async function harness(api: FakeApi): Promise<string> {
  h = await startAgentHarness({ api, options: { retry: RETRY } });
  return h.newSession();
}

describe.each<FakeApi>(["anthropic", "openai", "openai-compatible", "gemini"])("%s: a silent stream", (api) => {
  it("that says nothing at all is retried, then ends the turn with a clear error", async () => {
    const id = await harness(api);
    h.fake.enqueue({ text: "never sent", stall: { afterEvents: 0 } }, { text: "never sent", stall: { afterEvents: 0 } });
    const res = await h.prompt(id, "hello?");
    expect(res.stopReason).toBe("error");
    expect(h.fake.requests).toHaveLength(2);
    expect(h.client.updatesOf("status").map((u) => u.text)).toEqual([expect.stringMatching(new RegExp(`^retrying in \\d+ ms: .*${SILENT} \\(attempt 2 of 2\\)$`))]);
    expect(h.client.updatesOf("error")[0].message).toContain(SILENT);
    expect(h.fake.violations).toEqual([]);
  });

  it("that goes quiet after the answer began is not retried (the user saw it) and ends clearly", async () => {
    const id = await harness(api);
    h.fake.enqueue({ text: "The answer starts and then", hang: true });
    const res = await h.prompt(id, "hello?");
    expect(res.stopReason).toBe("error");
    expect(h.client.answerText().length).toBeGreaterThan(0);
    expect(h.fake.requests).toHaveLength(1);
    expect(h.client.updatesOf("error")[0].message).toContain(SILENT);
  });
});

describe("anthropic: pings and silence mid-stream", () => {
  it("a stream that goes quiet after message_start (nothing shown yet) is retried and the retry answers", async () => {
    const id = await harness("anthropic");
    // message_start and ping go out, then nothing: the SDK swallows the ping, our watch sees it.
    h.fake.enqueue({ text: "lost", stall: { afterEvents: 2 } }, { text: "Second attempt answers." });
    const res = await h.prompt(id, "hello?");
    expect(res.stopReason).toBe("end_turn");
    expect(h.client.answerText()).toBe("Second attempt answers.");
    expect(h.fake.requests).toHaveLength(2);
    expect(h.client.updatesOf("status")[0].text).toContain(SILENT);
  });

  it("keep-alive pings through a long pause count as activity: no retry, no error", async () => {
    const id = await harness("anthropic");
    // Three times the idle limit without an event, but a ping every 100 ms.
    h.fake.enqueue({ text: "Thought long, answered.", stall: { afterEvents: 2, forMs: IDLE_S * 3000, pingEveryMs: 100 } });
    const res = await h.prompt(id, "think hard");
    expect(res.stopReason).toBe("end_turn");
    expect(h.client.answerText()).toBe("Thought long, answered.");
    expect(h.fake.requests).toHaveLength(1);
    expect(h.client.updatesOf("error")).toEqual([]);
    expect(h.client.updatesOf("status")).toEqual([]);
  });
});
