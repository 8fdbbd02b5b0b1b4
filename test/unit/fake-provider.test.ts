// The fake provider itself: routing, validation, recording, and the bytes it streams.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeThinkingSignature } from "../helpers/fake-provider/anthropic.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const HEADERS = { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" };

function post(body: unknown, headers: Record<string, string> = HEADERS, path = "/v1/messages"): Promise<Response> {
  return fetch(fake.url + path, { method: "POST", headers, body: JSON.stringify(body) });
}

const valid = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: "claude-sonnet-4-6",
  max_tokens: 100,
  stream: true,
  messages,
  tools: [{ name: "read_file", input_schema: { type: "object" } }],
  ...extra,
});

describe("fake provider: validation", () => {
  it("rejects a tool_result without its tool_use, with a 400 in the API's shape, and records it", async () => {
    fake.enqueue({ text: "never sent" });
    const res = await post(
      valid([
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "text", text: "hello" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_missing", content: "x" }] },
      ]),
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: expect.stringContaining("toolu_missing") } });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.violations).toEqual([expect.stringContaining("tool_result for toolu_missing")]);
    expect(fake.violations).toEqual([expect.stringContaining("toolu_missing")]);
    // The queued turn was not used up by the invalid request.
    expect(fake.pendingTurns).toBe(1);
  });

  const invalid: Array<[string, unknown, Record<string, string> | undefined, RegExp]> = [
    ["a tool_use left unanswered", valid([{ role: "user", content: "a" }, { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: {} }] }, { role: "user", content: "b" }]), undefined, /tool_use t1 has no tool_result/],
    ["roles that do not alternate", valid([{ role: "user", content: "a" }, { role: "user", content: "b" }]), undefined, /alternate/],
    ["a first message from the assistant", valid([{ role: "assistant", content: "a" }]), undefined, /first message/],
    ["no messages", valid([]), undefined, /non-empty array/],
    ["no max_tokens", { ...valid([{ role: "user", content: "a" }]), max_tokens: undefined }, undefined, /max_tokens/],
    ["a bad tool name", valid([{ role: "user", content: "a" }], { tools: [{ name: "read file", input_schema: { type: "object" } }] }), undefined, /does not match/],
    ["a native tool with the wrong name", valid([{ role: "user", content: "a" }], { tools: [{ type: "bash_20250124", name: "shell" }] }), undefined, /must be named "bash"/],
    ["an empty text block", valid([{ role: "user", content: [{ type: "text", text: "" }] }]), undefined, /non-whitespace/],
    ["a modified thinking block", valid([{ role: "user", content: "a" }, { role: "assistant", content: [{ type: "thinking", thinking: "changed", signature: fakeThinkingSignature("original") }] }, { role: "user", content: "b" }]), undefined, /modified/],
    ["no credentials", valid([{ role: "user", content: "a" }]), { "content-type": "application/json", "anthropic-version": "2023-06-01" }, /x-api-key or authorization/],
  ];
  it.each(invalid)("rejects %s", async (_label, body, headers, message) => {
    const res = await post(body, headers);
    expect(res.status).toBe(400);
    expect(fake.violations.join("\n")).toMatch(message);
  });

  it("accepts the native text editor and bash tools", async () => {
    fake.enqueue({ text: "ok" });
    const tools = [
      { type: "text_editor_20250728", name: "str_replace_based_edit_tool" },
      { type: "bash_20250124", name: "bash" },
    ];
    const res = await post(valid([{ role: "user", content: "a" }], { tools }));
    await res.text();
    expect(res.status).toBe(200);
    expect(fake.violations).toEqual([]);
  });

  it("answers an unknown path with 404 and a violation", async () => {
    const res = await post({}, HEADERS, "/v1/complete");
    expect(res.status).toBe(404);
    expect(fake.violations).toEqual([expect.stringContaining("/v1/complete")]);
  });

  it("answers 500 with a clear message when no turn is queued", async () => {
    const res = await post(valid([{ role: "user", content: "a" }]));
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/no turn queued/);
    expect(fake.violations).toEqual([expect.stringMatching(/no turn queued/)]);
  });
});

describe("fake provider: streaming", () => {
  it("streams the Messages API's SSE events in order", async () => {
    fake.enqueue({ text: "Hi!", usage: { input: 7, output: 2 } });
    const res = await post(valid([{ role: "user", content: "a" }]));
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const raw = await res.text();
    const names = [...raw.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(raw).toContain('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi!"}}\n\n');
    expect(raw).toContain('"usage":{"input_tokens":7');
  });

  it("answers a scripted HTTP error in the API's shape with retry-after", async () => {
    fake.enqueue({ error: { status: 429, retryAfterSeconds: 3 } });
    const res = await post(valid([{ role: "user", content: "a" }]));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  });

  it("serves queued turns in order and waits for requests", async () => {
    fake.enqueue({ text: "one" }, { text: "two" });
    const waiting = fake.waitForRequests(2, 2000);
    const first = await (await post(valid([{ role: "user", content: "a" }]))).text();
    const second = await (await post(valid([{ role: "user", content: "b" }]))).text();
    expect(first).toContain('"text":"one"');
    expect(second).toContain('"text":"two"');
    expect(await waiting).toHaveLength(2);
    await expect(fake.waitForRequests(3, 50)).rejects.toThrow(/got 2/);
  });

  it("spaces events by chunkDelayMs", async () => {
    fake.enqueue({ text: "abcdef", chunkSize: 2, chunkDelayMs: 30 });
    const started = Date.now();
    await (await post(valid([{ role: "user", content: "a" }]))).text();
    // 9 events, 8 gaps of 30 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });
});
