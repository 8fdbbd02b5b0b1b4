import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../helpers/fake-provider/index.js";
import { collectEvents, ofType, readFileTool as readFile, texts, userText as user } from "../../helpers/provider-events.js";
import type { Message, ToolDefinition } from "../../../server/src/vocabulary/messages.js";
import { ResponsesStreamMapper, createOpenAIResponsesProvider } from "../../../server/src/providers/openai-responses.js";
import type { Provider, ProviderEvent, ProviderRequest } from "../../../server/src/providers/provider.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

let fake: FakeProvider;
let provider: Provider;

beforeEach(async () => {
  fake = await startFakeProvider();
  provider = createOpenAIResponsesProvider({ name: "openai", type: "openai", apiKey: "sk-test", baseUrl: `${fake.url}/v1`, options: {} });
});
afterEach(async () => {
  await fake.close();
});

const applyPatch: ToolDefinition = {
  name: "apply_patch",
  description: "Apply a patch",
  inputSchema: { type: "object", properties: { patch: { type: "string" } }, required: ["patch"] },
};

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: "gpt-4.1", system: "Be brief.", messages: [user("hi")], tools: [readFile], maxTokens: 1024, ...overrides };
}

const run = (req: ProviderRequest, signal?: AbortSignal) => collectEvents(provider, req, signal);

describe("OpenAI Responses adapter against the fake", () => {
  it("streams a text turn and sends a stateless request", async () => {
    fake.enqueue({ text: "Hello from the fake model", usage: { input: 30, output: 6 } });
    const events = await run(request());
    expect(texts(events, "text_delta")).toBe("Hello from the fake model");
    expect(ofType(events, "text_delta").length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
    const [req] = fake.requests;
    expect(req!.path).toBe("/v1/responses");
    expect(req!.headers.authorization).toBe("Bearer sk-test");
    expect(req!.body).toMatchObject({ model: "gpt-4.1", instructions: "Be brief.", store: false, stream: true, max_output_tokens: 1024 });
    expect(req!.body.input).toEqual([{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }]);
    expect(req!.body.tools).toEqual([{ type: "function", name: "read_file", description: "Read a file", parameters: readFile.inputSchema, strict: false }]);
    // Not a reasoning model: no reasoning parameters the API would reject.
    expect(req!.body.reasoning).toBeUndefined();
    expect(fake.violations).toEqual([]);
  });

  it("streams two tool calls with split arguments and replays them with their outputs", async () => {
    fake.enqueue(
      {
        text: "Reading both.",
        chunkSize: 5,
        toolCalls: [
          { id: "call_a", name: "read_file", input: { path: "src/a.ts" } },
          { id: "call_b", name: "read_file", input: { path: "src/b.ts" } },
        ],
      },
      { text: "Done." },
    );
    const events = await run(request());
    expect(ofType(events, "tool_call_start").map((e) => e.id)).toEqual(["call_a", "call_b"]);
    const deltasA = ofType(events, "tool_call_delta").filter((e) => e.id === "call_a");
    expect(deltasA.length).toBeGreaterThan(1);
    expect(deltasA.map((d) => d.partialJson).join("")).toBe(JSON.stringify({ path: "src/a.ts" }));
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
          { type: "text", text: "Reading both." },
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
    expect(texts(await run(request({ messages: history })), "text_delta")).toBe("Done.");
    expect(fake.requests[1]!.body.input.slice(1)).toEqual([
      { type: "message", role: "assistant", content: "Reading both." },
      { type: "function_call", call_id: "call_a", name: "read_file", arguments: '{"path":"src/a.ts"}' },
      { type: "function_call", call_id: "call_b", name: "read_file", arguments: '{"path":"src/b.ts"}' },
      { type: "function_call_output", call_id: "call_a", output: "A" },
      { type: "function_call_output", call_id: "call_b", output: "Error: no such file" },
    ]);
    expect(fake.violations).toEqual([]);
  });

  it("sends a tool result's image inside its function_call_output", async () => {
    fake.enqueue({ text: "A red square." });
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mediaType: "image/jpeg", data: "/9j/AAAA" }] },
      { role: "assistant", content: [{ type: "tool_call", id: "call_s", name: "screenshot", input: {} }] },
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
        ],
      },
    ];
    await run(request({ messages: history }));
    const input = fake.requests[0]!.body.input;
    expect(input[0].content[1]).toEqual({ type: "input_image", image_url: "data:image/jpeg;base64,/9j/AAAA", detail: "auto" });
    expect(input[2]).toEqual({
      type: "function_call_output",
      call_id: "call_s",
      output: [
        { type: "input_text", text: "Screenshot:" },
        { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
      ],
    });
    expect(input).toHaveLength(3);
    expect(fake.violations).toEqual([]);
  });

  it("ends with a non-retryable error when the response fails after output went out", async () => {
    fake.enqueue({ text: "partial answer here", streamError: { message: "The model crashed", type: "server_error" } });
    const events = await run(request());
    expect(texts(events, "text_delta").length).toBeGreaterThan(0);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "error", retryable: false });
    expect(last?.type === "error" && last.message).toContain("The model crashed");
    expect(ofType(events, "stop")).toEqual([]);
  });

  it("marks a stream cut before any output as retryable", async () => {
    fake.enqueue({ text: "never seen", cutAfterEvents: 2 });
    const events = await run(request());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", retryable: true });
  });

  it("maps a 429 with retry-after to a retryable error with the wait and the provider's words", async () => {
    fake.enqueue({ error: { status: 429, message: "Rate limit reached for gpt-4.1", retryAfterSeconds: 7 } });
    const events = await run(request());
    expect(events).toEqual([
      { type: "error", status: 429, retryable: true, retryAfterMs: 7000, message: expect.stringContaining("Rate limit reached for gpt-4.1") },
    ]);
  });

  it("does not retry a 400", async () => {
    fake.enqueue({ error: { status: 400, message: "Invalid schema for function 'read_file'" } });
    const [event] = await run(request());
    expect(event).toMatchObject({ type: "error", status: 400, retryable: false });
    expect(event?.type === "error" && event.message).toContain("Invalid schema for function 'read_file'");
  });

  it("reports usage with cached tokens apart from uncached input", async () => {
    fake.enqueue({ text: "ok", usage: { input: 100, cacheRead: 40, output: 20 } });
    const events = await run(request());
    expect(ofType(events, "usage")).toEqual([
      { type: "usage", usage: { inputTokens: 100, cacheReadTokens: 40, outputTokens: 20, cacheWriteTokens: 0 } },
    ]);
  });

  it("streams a reasoning summary as thinking and replays the encrypted reasoning item", async () => {
    fake.enqueue({ thinking: "First I look.\n\nThen I answer.", text: "42", chunkSize: 4 }, { text: "Still 42." });
    const events = await run(request({ model: "gpt-5" }));
    expect(texts(events, "thinking_delta")).toBe("First I look.\n\nThen I answer.");
    const [end] = ofType(events, "thinking_end");
    expect(end!.text).toBe("First I look.\n\nThen I answer.");
    expect(end!.providerData).toMatchObject({ type: "reasoning", encrypted_content: expect.stringMatching(/^gAAAAA/) });
    expect(fake.requests[0]!.body).toMatchObject({ include: ["reasoning.encrypted_content"], reasoning: { summary: "auto" } });

    const history: Message[] = [
      user("hi"),
      { role: "assistant", content: [{ type: "thinking", text: end!.text, providerData: end!.providerData }, { type: "text", text: "42" }] },
      user("sure?"),
    ];
    await run(request({ model: "gpt-5", messages: history }));
    expect(fake.requests[1]!.body.input[1]).toEqual(end!.providerData);
    expect(fake.violations).toEqual([]);
  });

  it("maps max_output_tokens to max_tokens and a refusal part to refusal", async () => {
    fake.enqueue({ text: "cut sho", stop: "max_tokens" }, { text: "I can't help with that.", stop: "refusal" });
    expect((await run(request())).at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
    const refused = await run(request());
    expect(texts(refused, "text_delta")).toBe("I can't help with that.");
    expect(refused.at(-1)).toEqual({ type: "stop", reason: "refusal" });
  });

  it("offers native apply_patch, surfaces its call as native, and replays call and output in kind", async () => {
    const operation = { type: "update_file", path: "src/a.ts", diff: "@@\n-old\n+new\n" };
    fake.enqueue({ toolCalls: [{ id: "call_p", name: "apply_patch", nativeKind: "apply_patch_call", input: operation }] }, { text: "Patched." });
    const nativeTools = [{ kind: "openai_apply_patch", name: "apply_patch" }];
    const events = await run(request({ tools: [readFile, applyPatch], nativeTools }));
    expect(fake.requests[0]!.body.tools.map((t: { type: string; name?: string }) => t.name ?? t.type)).toEqual(["read_file", "apply_patch"]);
    expect(fake.requests[0]!.body.tools[1]).toEqual({ type: "apply_patch" });
    expect(ofType(events, "tool_call_start")).toEqual([{ type: "tool_call_start", id: "call_p", name: "apply_patch" }]);
    expect(ofType(events, "tool_call_end")).toEqual([
      { type: "tool_call_end", id: "call_p", name: "apply_patch", input: operation, native: { name: "apply_patch", kind: "apply_patch_call", input: operation } },
    ]);

    const history: Message[] = [
      user("fix it"),
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "call_p", name: "apply_patch", input: { patch: "*** Begin Patch" }, native: { name: "apply_patch", kind: "apply_patch_call", input: operation } },
        ],
      },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "call_p", name: "apply_patch", isError: false, content: [{ type: "text", text: "Updated src/a.ts" }] }] },
    ];
    await run(request({ tools: [readFile, applyPatch], nativeTools, messages: history }));
    expect(fake.requests[1]!.body.input.slice(1)).toEqual([
      { type: "apply_patch_call", call_id: "call_p", status: "completed", operation },
      { type: "apply_patch_call_output", call_id: "call_p", status: "completed", output: "Updated src/a.ts" },
    ]);
    expect(fake.violations).toEqual([]);
  });

  it("replays a native apply_patch call as our function call once native tools are off", async () => {
    fake.enqueue({ text: "Patched." });
    const operation = { type: "delete_file", path: "old.ts" };
    const history: Message[] = [
      user("remove it"),
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "call_p", name: "apply_patch", input: { patch: "*** Begin Patch" }, native: { name: "apply_patch", kind: "apply_patch_call", input: operation } },
        ],
      },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "call_p", name: "apply_patch", isError: false, content: [{ type: "text", text: "Deleted old.ts" }] }] },
    ];
    await run(request({ tools: [readFile, applyPatch], messages: history }));
    expect(fake.requests[0]!.body.input.slice(1)).toEqual([
      { type: "function_call", call_id: "call_p", name: "apply_patch", arguments: '{"patch":"*** Begin Patch"}' },
      { type: "function_call_output", call_id: "call_p", output: "Deleted old.ts" },
    ]);
    expect(fake.violations).toEqual([]);
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

  it("says so when no API key is configured, without calling the API", async () => {
    const keyless = createOpenAIResponsesProvider({ name: "openai", type: "openai", baseUrl: `${fake.url}/v1`, options: {} });
    const events: ProviderEvent[] = [];
    for await (const event of keyless.stream(request(), new AbortController().signal)) events.push(event);
    expect(events).toEqual([{ type: "error", retryable: false, message: expect.stringContaining("OPENAI_API_KEY") }]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("ResponsesStreamMapper on events the fake does not send", () => {
  const mapAll = (events: object[]) => {
    const mapper = new ResponsesStreamMapper({ emittedContent: false, provider: "openai" }, "apply_patch");
    return { out: events.flatMap((e) => [...mapper.map(e as ResponseStreamEvent)]), mapper };
  };

  it("maps a stream `error` event, retryable when nothing was shown yet", () => {
    const { out, mapper } = mapAll([{ type: "error", code: "rate_limit_exceeded", message: "Slow down", param: null, sequence_number: 1 }]);
    expect(out).toEqual([{ type: "error", retryable: true, message: "openai reported an error mid-stream (rate_limit_exceeded): Slow down" }]);
    expect(mapper.finished).toBe(true);
  });

  it("maps an incomplete response cut by the content filter to refusal", () => {
    const response = { incomplete_details: { reason: "content_filter" }, usage: undefined };
    expect(mapAll([{ type: "response.incomplete", response, sequence_number: 4 }]).out).toEqual([{ type: "stop", reason: "refusal" }]);
  });
});
