import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../helpers/fake-provider/index.js";
import { collectEvents, ofType, readFileTool as readFile, texts, userText as user } from "../../helpers/provider-events.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import { ChatStreamMapper, createOpenAIChatProvider } from "../../../server/src/providers/openai-chat.js";
import type { Provider, ProviderEvent, ProviderRequest } from "../../../server/src/providers/provider.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

let fake: FakeProvider;
let provider: Provider;
let baseUrl: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  baseUrl = `${fake.url}/v1`;
  provider = createOpenAIChatProvider({ name: "ollama", type: "openai-compatible", baseUrl, options: {} });
});
afterEach(async () => {
  await fake.close();
});

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: "qwen3:8b", system: "Be brief.", messages: [user("hi")], tools: [readFile], maxTokens: 1024, ...overrides };
}

const run = (req: ProviderRequest, signal?: AbortSignal) => collectEvents(provider, req, signal);

describe("OpenAI-compatible chat adapter against the fake", () => {
  it("sends a history of megabytes (a large create sent back) as the same JSON, built in pieces, and parses a large tool input as it streams", async () => {
    const big = `${"y".repeat(63)}\n`.repeat(80_000); // 5 MB, past the size built in pieces
    fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "big.txt", note: big } }], chunkSize: 1 << 20 });
    const events = await run(request({ messages: [user(big)] }));
    const [req] = fake.requests;
    expect(req!.headers["content-type"]).toContain("application/json");
    expect(req!.body).toMatchObject({ model: "qwen3:8b", stream: true });
    expect(req!.body.messages[1]).toEqual({ role: "user", content: big });
    expect(ofType(events, "tool_call_end")[0]).toMatchObject({ name: "read_file", input: { path: "big.txt", note: big } });
  });

  it.each([
    ["built in pieces", 5_000_000],
    ["written whole by the SDK", 1_200_000],
  ])("sends a megabyte tool call back with exactly its arguments (%s)", async (_how, size) => {
    const input = { path: "big.txt", content: `"quoted" \\ é 😀\n${"y".repeat(40)}\n`.repeat(Math.round(size / 60)) };
    fake.enqueue({ text: "ok" });
    const history: Message[] = [
      user("write big.txt"),
      { role: "assistant", content: [{ type: "tool_call", id: "call_1", name: "write_file", input }] },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "call_1", name: "write_file", isError: false, content: [{ type: "text", text: "written" }] }] },
    ];
    await run(request({ messages: history }));
    const sent = fake.requests[0]!.body.messages[2];
    expect(sent.tool_calls).toEqual([{ id: "call_1", type: "function", function: { name: "write_file", arguments: JSON.stringify(input) } }]);
  });

  it("streams a text turn and sends a plain request with a placeholder key", async () => {
    fake.enqueue({ text: "Hello from a local model" });
    const events = await run(request());
    expect(texts(events, "text_delta")).toBe("Hello from a local model");
    expect(events.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
    const [req] = fake.requests;
    expect(req!.path).toBe("/v1/chat/completions");
    expect(req!.headers.authorization).toBe("Bearer no-key-needed");
    expect(req!.body).toMatchObject({ model: "qwen3:8b", stream: true, stream_options: { include_usage: true }, max_tokens: 1024 });
    expect(req!.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi" },
    ]);
    expect(req!.body.tools).toEqual([
      { type: "function", function: { name: "read_file", description: "Read a file", parameters: readFile.inputSchema } },
    ]);
    expect(fake.violations).toEqual([]);
  });

  it("assembles two tool calls from split argument deltas and replays them as tool messages", async () => {
    fake.enqueue(
      {
        chunkSize: 4,
        toolCalls: [
          { id: "call_a", name: "read_file", input: { path: "src/a.ts" } },
          { id: "call_b", name: "read_file", input: { path: "src/b.ts" } },
        ],
      },
      { text: "Both read." },
    );
    const events = await run(request());
    expect(ofType(events, "tool_call_start").map((e) => e.id)).toEqual(["call_a", "call_b"]);
    const deltasB = ofType(events, "tool_call_delta").filter((e) => e.id === "call_b");
    expect(deltasB.length).toBeGreaterThan(1);
    expect(deltasB.map((d) => d.partialJson).join("")).toBe('{"path":"src/b.ts"}');
    expect(ofType(events, "tool_call_end")).toEqual([
      { type: "tool_call_end", id: "call_a", name: "read_file", input: { path: "src/a.ts" } },
      { type: "tool_call_end", id: "call_b", name: "read_file", input: { path: "src/b.ts" } },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "tool_use" });

    const history: Message[] = [
      user("hi"),
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "not sent back" },
          { type: "tool_call", id: "call_a", name: "read_file", input: { path: "src/a.ts" } },
          { type: "tool_call", id: "call_b", name: "read_file", input: { path: "src/b.ts" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool_result", toolCallId: "call_a", name: "read_file", isError: false, content: [{ type: "text", text: "A" }] },
          { type: "tool_result", toolCallId: "call_b", name: "read_file", isError: true, content: [{ type: "text", text: "no such file" }] },
        ],
      },
    ];
    expect(texts(await run(request({ messages: history })), "text_delta")).toBe("Both read.");
    expect(fake.requests[1]!.body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"src/a.ts"}' } },
          { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"src/b.ts"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "A" },
      { role: "tool", tool_call_id: "call_b", content: "Error: no such file" },
    ]);
    expect(fake.violations).toEqual([]);
  });

  it("sends tool result images in a user message after the whole run of tool messages", async () => {
    fake.enqueue({ text: "I see it." });
    const history: Message[] = [
      user("look"),
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "call_s", name: "screenshot", input: {} },
          { type: "tool_call", id: "call_r", name: "read_file", input: { path: "a" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            toolCallId: "call_s",
            name: "screenshot",
            isError: false,
            content: [{ type: "text", text: "Screenshot:" }, { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }],
          },
          { type: "tool_result", toolCallId: "call_r", name: "read_file", isError: false, content: [{ type: "text", text: "x" }] },
        ],
      },
    ];
    await run(request({ messages: history }));
    const messages = fake.requests[0]!.body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "user"]);
    expect(messages[3]).toEqual({ role: "tool", tool_call_id: "call_s", content: "Screenshot:" });
    expect(messages[5].content).toContainEqual({ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } });
    expect(fake.violations).toEqual([]);
  });

  it("ends with the server's message when the stream carries an error", async () => {
    fake.enqueue({ text: "partial answer", streamError: { message: "CUDA out of memory" } });
    const events = await run(request());
    expect(texts(events, "text_delta").length).toBeGreaterThan(0);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", retryable: false });
    expect(last?.type === "error" && last.message).toContain("CUDA out of memory");
    expect(ofType(events, "stop")).toEqual([]);
  });

  it("marks a stream cut before any output as retryable", async () => {
    fake.enqueue({ text: "never seen", cutAfterEvents: 1 });
    const events = await run(request());
    expect(events).toEqual([expect.objectContaining({ type: "error", retryable: true })]);
  });

  it("maps a 429 with retry-after to a retryable error with the wait", async () => {
    fake.enqueue({ error: { status: 429, message: "Too many requests, slow down", retryAfterSeconds: 2 } });
    expect(await run(request())).toEqual([
      { type: "error", status: 429, retryable: true, retryAfterMs: 2000, message: expect.stringContaining("Too many requests, slow down") },
    ]);
  });

  it("reports usage with cached tokens apart from uncached input, and length as max_tokens", async () => {
    fake.enqueue({ text: "trunc", usage: { input: 300, cacheRead: 200, output: 9 }, stop: "max_tokens" });
    const events = await run(request());
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", usage: { inputTokens: 300, cacheReadTokens: 200, outputTokens: 9, cacheWriteTokens: 0 } },
    ]);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });

  it("streams reasoning_content as thinking, closed before the answer starts", async () => {
    fake.enqueue({ thinking: "The user greets me.", text: "Hi!", chunkSize: 5 });
    const events = await run(request());
    expect(texts(events, "thinking_delta")).toBe("The user greets me.");
    const end = events.findIndex((e) => e.type === "thinking_end");
    expect(events[end]).toEqual({ type: "thinking_end", text: "The user greets me." });
    expect(end).toBeLessThan(events.findIndex((e) => e.type === "text_delta"));
  });

  it("turns Ollama's 'does not support tools' 400 into a clear, non-retryable error naming the model", async () => {
    fake.enqueue({ error: { status: 400, type: "api_error", message: "registry.ollama.ai/library/gemma:2b does not support tools" } });
    const [event, ...rest] = await run(request({ model: "gemma:2b" }));
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: "error", status: 400, retryable: false });
    const message = event?.type === "error" ? event.message : "";
    expect(message).toContain(`Model "gemma:2b" at ${baseUrl} does not support tool calling`);
    expect(message).toContain("registry.ollama.ai/library/gemma:2b does not support tools");
  });

  it("leaves other 400s as the server's own error", async () => {
    fake.enqueue({ error: { status: 400, message: "invalid message format" } });
    const [event] = await run(request({ model: "gemma:2b" }));
    expect(event?.type === "error" && event.message).not.toContain("tool calling");
    expect(event?.type === "error" && event.message).toContain("invalid message format");
  });

  it("ends promptly and without an error when aborted during a hanging stream", async () => {
    fake.enqueue({ text: "first chunk then silence", hang: true });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const started = Date.now();
    for await (const event of provider.stream(request(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    expect(events.map((e) => e.type)).toEqual(["text_delta"]);
  });

  it("asks for a base_url instead of calling OpenAI when none is set", async () => {
    const unset = createOpenAIChatProvider({ name: "lmstudio", type: "openai-compatible", options: {} });
    const events: ProviderEvent[] = [];
    for await (const event of unset.stream(request(), new AbortController().signal)) events.push(event);
    expect(events).toEqual([{ type: "error", retryable: false, message: expect.stringContaining("[providers.lmstudio]") }]);
  });
});

describe("ChatStreamMapper on chunks the fake does not send", () => {
  it("handles Ollama's shape: `reasoning`, a whole tool call per chunk and finish_reason stop", () => {
    const mapper = new ChatStreamMapper({ emittedContent: false });
    const chunk = (delta: object, finish_reason: string | null = null) =>
      ({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason }] }) as ChatCompletionChunk;
    const events = [
      ...mapper.map(chunk({ role: "assistant", content: "", reasoning: "Need the file." })),
      ...mapper.map(chunk({ tool_calls: [{ id: "call_x", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } }] })),
      ...mapper.map(chunk({}, "stop")),
      ...mapper.finish(),
    ];
    expect(events).toEqual([
      { type: "thinking_delta", text: "Need the file." },
      { type: "thinking_end", text: "Need the file." },
      { type: "tool_call_start", id: "call_x", name: "read_file" },
      { type: "tool_call_delta", id: "call_x", partialJson: '{"path":"a"}' },
      { type: "tool_call_end", id: "call_x", name: "read_file", input: { path: "a" } },
      { type: "stop", reason: "tool_use" },
    ]);
  });
});
