// The Anthropic adapter end to end through the real @anthropic-ai/sdk against the fake provider:
// everything below crosses HTTP and the SDK's own SSE parser.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../../../server/src/providers/anthropic.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import type { Provider, ProviderEvent, ProviderRequest } from "../../../server/src/providers/provider.js";
import { startFakeProvider, type FakeProvider } from "../../helpers/fake-provider/index.js";
import { collectEvents, ofType, readFileTool as READ_FILE } from "../../helpers/provider-events.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const EDITOR = { kind: "anthropic_text_editor", name: "str_replace_based_edit_tool" };
const BASH = { kind: "anthropic_bash", name: "bash" };

let fake: FakeProvider;
let provider: Provider;

beforeEach(async () => {
  fake = await startFakeProvider();
  provider = createAnthropicProvider({ name: "anthropic", type: "anthropic", apiKey: "test-key", baseUrl: fake.url, options: {} });
});
afterEach(async () => {
  await fake.close();
});

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: "claude-sonnet-4-6",
    system: "You are a test.",
    messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
    tools: [READ_FILE],
    maxTokens: 4096,
    ...overrides,
  };
}

const collect = (req: ProviderRequest, signal?: AbortSignal) => collectEvents(provider, req, signal);

describe("Anthropic adapter: streaming", () => {
  it("streams text deltas in order and ends with usage and end_turn", async () => {
    fake.enqueue({ text: "Hello there, streamed in pieces.", chunkSize: 5 });
    const events = await collect(request());

    const deltas = ofType(events, "text_delta").map((e) => e.text);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe("Hello there, streamed in pieces.");
    expect(events.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
    expect(events.at(-2)?.type).toBe("usage");
    expect(fake.violations).toEqual([]);

    const [sent] = fake.requests;
    // SDK 1.x sends the key as a bearer token.
    expect(sent!.headers.authorization).toBe("Bearer test-key");
    expect(sent!.body).toMatchObject({
      model: "claude-sonnet-4-6",
      max_tokens: 4096,
      stream: true,
      system: "You are a test.",
      tools: [{ name: "read_file", description: "Read a file", input_schema: READ_FILE.inputSchema }],
      cache_control: { type: "ephemeral" },
    });
  });

  it("streams two tool calls with their input split across deltas, and the results go back paired", async () => {
    fake.enqueue({
      text: "Reading both.",
      toolCalls: [
        { id: "toolu_a", name: "read_file", input: { path: "src/one.ts" } },
        { id: "toolu_b", name: "read_file", input: { path: "src/two.ts" } },
      ],
      chunkSize: 4,
    });
    const events = await collect(request());

    expect(ofType(events, "tool_call_start").map((e) => e.id)).toEqual(["toolu_a", "toolu_b"]);
    const deltasA = ofType(events, "tool_call_delta").filter((e) => e.id === "toolu_a");
    expect(deltasA.length).toBeGreaterThan(2);
    expect(deltasA.map((e) => e.partialJson).join("")).toBe('{"path":"src/one.ts"}');
    expect(ofType(events, "tool_call_end")).toEqual([
      { type: "tool_call_end", id: "toolu_a", name: "read_file", input: { path: "src/one.ts" } },
      { type: "tool_call_end", id: "toolu_b", name: "read_file", input: { path: "src/two.ts" } },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "tool_use" });

    fake.enqueue({ text: "Both read." });
    const history: Message[] = [
      ...request().messages,
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading both." },
          { type: "tool_call", id: "toolu_a", name: "read_file", input: { path: "src/one.ts" } },
          { type: "tool_call", id: "toolu_b", name: "read_file", input: { path: "src/two.ts" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool_result", toolCallId: "toolu_a", name: "read_file", isError: false, content: [{ type: "text", text: "1" }] },
          { type: "tool_result", toolCallId: "toolu_b", name: "read_file", isError: true, content: [{ type: "text", text: "no such file" }] },
        ],
      },
    ];
    await collect(request({ messages: history }));
    expect(fake.violations).toEqual([]);
    expect(fake.requests[1]!.body.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_a", content: [{ type: "text", text: "1" }] },
        { type: "tool_result", tool_use_id: "toolu_b", content: [{ type: "text", text: "no such file" }], is_error: true },
      ],
    });
  });

  it("streams thinking, and sends the thinking block back with its signature", async () => {
    const thinking = "The user wants a file read. I will read it.";
    fake.enqueue({ thinking, toolCalls: [{ id: "toolu_t", name: "read_file", input: { path: "a.ts" } }] });
    const events = await collect(request({ thinkingBudget: 2048 }));

    expect(fake.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(ofType(events, "thinking_delta").map((e) => e.text).join("")).toBe(thinking);
    const [end] = ofType(events, "thinking_end");
    expect(end!.text).toBe(thinking);
    expect(end!.signature).toEqual(expect.any(String));

    fake.enqueue({ text: "Done." });
    const history: Message[] = [
      ...request().messages,
      {
        role: "assistant",
        content: [
          { type: "thinking", text: end!.text, signature: end!.signature },
          { type: "tool_call", id: "toolu_t", name: "read_file", input: { path: "a.ts" } },
        ],
      },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "toolu_t", name: "read_file", isError: false, content: [{ type: "text", text: "x" }] }] },
    ];
    await collect(request({ thinkingBudget: 2048, messages: history }));
    // The fake checks each signature against its thinking text, as the API does.
    expect(fake.violations).toEqual([]);
    expect(fake.requests[1]!.body.messages[1].content[0]).toEqual({ type: "thinking", thinking, signature: end!.signature });
  });

  it("sends an image tool result inside the tool_result block", async () => {
    fake.enqueue({ text: "A red pixel." });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "Take a screenshot" }] },
      { role: "assistant", content: [{ type: "tool_call", id: "toolu_img", name: "read_file", input: { path: "p.png" } }] },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            toolCallId: "toolu_img",
            name: "read_file",
            isError: false,
            content: [
              { type: "text", text: "p.png (1x1)" },
              { type: "image", mediaType: "image/png", data: PNG },
            ],
          },
        ],
      },
    ];
    await collect(request({ messages }));
    expect(fake.violations).toEqual([]);
    expect(fake.requests[0]!.body.messages[2].content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_img",
        content: [
          { type: "text", text: "p.png (1x1)" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        ],
      },
    ]);
  });

  it("reports usage with cache reads and writes, the input as soon as message_start tells it", async () => {
    fake.enqueue({ text: "ok", usage: { input: 120, output: 33, cacheRead: 5000, cacheWrite: 300 } });
    const events = await collect(request());
    const usage = ofType(events, "usage");
    // Running totals: the first comes before any content (message_start), the last one counts.
    expect(events.indexOf(usage[0]!)).toBeLessThan(events.findIndex((e) => e.type === "text_delta"));
    expect(usage[0]!.usage).toMatchObject({ inputTokens: 120, cacheReadTokens: 5000, cacheWriteTokens: 300 });
    expect(usage.at(-1)).toEqual({ type: "usage", usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 5000, cacheWriteTokens: 300 } });
  });

  it("maps a refusal to the refusal stop reason", async () => {
    fake.enqueue({ text: "I can't help with that.", stop: "refusal" });
    const events = await collect(request());
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "refusal", message: expect.any(String) });
  });
});

describe("Anthropic adapter: errors", () => {
  it("turns a 529 into a retryable error with the API's message", async () => {
    fake.enqueue({ error: { status: 529, message: "Overloaded right now" } });
    const events = await collect(request());
    expect(events).toEqual([
      { type: "error", status: 529, retryable: true, message: expect.stringContaining("Overloaded right now") },
    ]);
    expect(events[0]).toMatchObject({ message: expect.stringContaining("overloaded_error") });
  });

  it("reads retry-after on a 429", async () => {
    fake.enqueue({ error: { status: 429, message: "Slow down", retryAfterSeconds: 3 } });
    const events = await collect(request());
    expect(events).toEqual([
      { type: "error", status: 429, retryable: true, retryAfterMs: 3000, message: expect.stringContaining("Slow down") },
    ]);
  });

  it("does not retry a 400", async () => {
    fake.enqueue({ error: { status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" } });
    const [event] = await collect(request());
    expect(event).toMatchObject({ type: "error", status: 400, retryable: false, message: expect.stringContaining("prompt is too long") });
  });

  it("reports a stream cut halfway as an error, not retryable once text was shown", async () => {
    fake.enqueue({ text: "This answer will be cut off in the middle.", chunkSize: 4, cutAfterEvents: 6 });
    const events = await collect(request());
    expect(ofType(events, "text_delta").length).toBeGreaterThan(0);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", retryable: false, message: expect.stringContaining("closed before the response finished") });
    expect(ofType(events, "stop")).toEqual([]);
  });

  it("reports a stream cut before any content as retryable", async () => {
    fake.enqueue({ text: "Never seen.", cutAfterEvents: 1 });
    const events = await collect(request());
    expect(events.filter((e) => e.type !== "usage")).toEqual([{ type: "error", retryable: true, message: expect.stringMatching(/anthropic/i) }]);
  });

  it("reports a mid-stream error event with its type and message", async () => {
    fake.enqueue({ text: "Starting the answer", streamError: { message: "Overloaded", type: "overloaded_error" } });
    const events = await collect(request());
    expect(ofType(events, "text_delta").length).toBe(1);
    expect(events.at(-1)).toEqual({
      type: "error",
      retryable: false,
      message: "Anthropic stream error (overloaded_error): Overloaded",
    });
  });

  it("marks a mid-stream overload before any content as retryable", async () => {
    fake.enqueue({ streamError: { message: "Overloaded" } });
    const events = await collect(request());
    expect(events.filter((e) => e.type !== "usage")).toEqual([{ type: "error", retryable: true, message: expect.stringContaining("Overloaded") }]);
  });

  it("ends quietly and promptly when aborted while the stream hangs", async () => {
    fake.enqueue({ text: "Hello, and then nothing", hang: true });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    let abortedAt = 0;
    for await (const event of provider.stream(request(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta" && !abortedAt) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(PROMPTLY_MS);
    expect(ofType(events, "text_delta").length).toBe(1);
    expect(ofType(events, "error")).toEqual([]);
  });
});

describe("Anthropic adapter: native tools", () => {
  it("offers the text editor and bash, marks native calls, and replays them as the model wrote them", async () => {
    const input = { command: "str_replace", path: "a.ts", old_str: "let", new_str: "const" };
    fake.enqueue({ toolCalls: [{ id: "toolu_n", name: "str_replace_based_edit_tool", input }] });
    const events = await collect(request({ nativeTools: [EDITOR, BASH] }));

    expect(fake.requests[0]!.body.tools).toEqual([
      { name: "read_file", description: "Read a file", input_schema: READ_FILE.inputSchema },
      { type: "text_editor_20250728", name: "str_replace_based_edit_tool" },
      { type: "bash_20250124", name: "bash" },
    ]);
    expect(ofType(events, "tool_call_end")).toEqual([
      {
        type: "tool_call_end",
        id: "toolu_n",
        name: "str_replace_based_edit_tool",
        input,
        native: { name: "str_replace_based_edit_tool", input, kind: "anthropic_text_editor" },
      },
    ]);

    // History stores the call as our tool, with the native shape beside it.
    fake.enqueue({ text: "Edited." });
    const history: Message[] = [
      ...request().messages,
      {
        role: "assistant",
        content: [
          {
            type: "tool_call",
            id: "toolu_n",
            name: "edit_file",
            input: { path: "a.ts", target_content: "let", replacement_content: "const" },
            native: { name: "str_replace_based_edit_tool", input, kind: "anthropic_text_editor" },
          },
        ],
      },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "toolu_n", name: "edit_file", isError: false, content: [{ type: "text", text: "ok" }] }] },
    ];
    await collect(request({ nativeTools: [EDITOR, BASH], messages: history }));
    expect(fake.violations).toEqual([]);
    expect(fake.requests[1]!.body.messages[1].content).toEqual([
      { type: "tool_use", id: "toolu_n", name: "str_replace_based_edit_tool", input },
    ]);
  });

  it("does not mark a call native when the native tool was not offered", async () => {
    fake.enqueue({ toolCalls: [{ id: "toolu_x", name: "read_file", input: { path: "a" } }] });
    const events = await collect(request({ nativeTools: [BASH] }));
    expect(ofType(events, "tool_call_end")[0]).not.toHaveProperty("native");
  });
});
