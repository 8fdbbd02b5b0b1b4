/**
 * The Gemini adapter through the real `@google/genai` SDK against the fake provider's Gemini wire
 * format: conversation conversion, streaming, thought signatures, usage and stop reasons.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantBlock, Message } from "../../../server/src/vocabulary/messages.js";
import { createGeminiProvider } from "../../../server/src/providers/gemini.js";
import type { ProviderEvent, ProviderRequest } from "../../../server/src/providers/provider.js";
import { startFakeProvider, type FakeProvider } from "../../helpers/fake-provider/index.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const READ_FILE = {
  name: "read_file",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
};

function request(messages: Message[], extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: "gemini-3-flash-preview", system: "You are terse.", messages, tools: [READ_FILE], maxTokens: 1024, ...extra };
}

async function collect(messages: Message[], extra: Partial<ProviderRequest> = {}): Promise<ProviderEvent[]> {
  const provider = createGeminiProvider({ name: "gemini", type: "gemini", apiKey: "test-key", baseUrl: fake.url, options: {} });
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request(messages, extra), new AbortController().signal)) events.push(event);
  return events;
}

/** Builds the assistant message from a stream's events the way the agent loop records it. */
function assistantFrom(events: ProviderEvent[]): Message {
  const content: AssistantBlock[] = [];
  for (const e of events) {
    const last = content[content.length - 1];
    if (e.type === "text_delta") {
      if (last?.type === "text") last.text += e.text;
      else content.push({ type: "text", text: e.text });
    } else if (e.type === "thinking_end") {
      content.push({ type: "thinking", text: e.text, providerData: e.providerData });
    } else if (e.type === "tool_call_end") {
      content.push({ type: "tool_call", id: e.id, name: e.name, input: e.input, providerData: e.providerData });
    }
  }
  return { role: "assistant", content };
}

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const textOf = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");

describe("gemini provider", () => {
  it("streams a text turn and sends the request the API expects", async () => {
    fake.enqueue({ text: "Hello from Gemini, in pieces.", usage: { input: 20, output: 7 } });
    const events = await collect([user("Say hello")]);

    expect(textOf(events)).toBe("Hello from Gemini, in pieces.");
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
    expect(events.slice(-2)).toEqual([
      { type: "usage", usage: { inputTokens: 20, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 } },
      { type: "stop", reason: "end_turn" },
    ]);
    const [req] = fake.requests;
    expect(req!.path).toBe("/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse");
    expect(req!.headers["x-goog-api-key"]).toBe("test-key");
    expect(req!.body.contents).toEqual([{ role: "user", parts: [{ text: "Say hello" }] }]);
    expect(req!.body.systemInstruction.parts).toEqual([{ text: "You are terse." }]);
    expect(req!.body.generationConfig).toEqual({ maxOutputTokens: 1024 });
    expect(req!.body.tools).toEqual([{ functionDeclarations: [{ name: "read_file", description: "Read a file", parametersJsonSchema: READ_FILE.inputSchema }] }]);
    expect(fake.violations).toEqual([]);
  });

  it("runs a two-call tool turn and answers both calls with functionResponse parts", async () => {
    fake.enqueue(
      { thinking: "Need both files.", toolCalls: [{ name: "read_file", input: { path: "a.ts" } }, { name: "read_file", input: { path: "b.ts" } }] },
      { text: "Both read." },
    );
    const history: Message[] = [user("Read a.ts and b.ts")];
    const first = await collect(history, { thinkingBudget: 512 });

    const calls = first.filter((e) => e.type === "tool_call_end");
    expect(calls.map((e) => e.input)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
    const ids = calls.map((e) => e.id);
    expect(new Set(ids).size).toBe(2); // Gemini sent no ids: the adapter made distinct ones
    expect(first.filter((e) => e.type === "tool_call_start").map((e) => e.id)).toEqual(ids);
    expect(first.at(-1)).toEqual({ type: "stop", reason: "tool_use" });

    history.push(assistantFrom(first), {
      role: "tool",
      content: [
        { type: "tool_result", toolCallId: ids[0]!, name: "read_file", isError: false, content: [{ type: "text", text: "A" }] },
        { type: "tool_result", toolCallId: ids[1]!, name: "read_file", isError: true, content: [{ type: "text", text: "no such file" }] },
      ],
    });
    const second = await collect(history, { thinkingBudget: 512 });
    expect(textOf(second)).toBe("Both read.");

    const contents = fake.requests[1]!.body.contents;
    const signature = (calls[0]!.providerData as { gemini: { thoughtSignature: string } }).gemini.thoughtSignature;
    expect(contents[1]).toEqual({
      role: "model",
      parts: [
        { text: "Need both files.", thought: true },
        { functionCall: { name: "read_file", args: { path: "a.ts" } }, thoughtSignature: signature },
        { functionCall: { name: "read_file", args: { path: "b.ts" } } },
      ],
    });
    expect(contents[2]).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "read_file", response: { output: "A" } } },
        { functionResponse: { name: "read_file", response: { error: "no such file" } } },
      ],
    });
    expect(fake.violations).toEqual([]);
  });

  it("sends Gemini's own call ids back on the call and its response", async () => {
    fake.enqueue({ toolCalls: [{ id: "fc-1", name: "read_file", input: { path: "a.ts" } }] }, { text: "ok" });
    const history: Message[] = [user("Read a.ts")];
    const first = await collect(history);
    expect(first.find((e) => e.type === "tool_call_end")).toMatchObject({ id: "fc-1", name: "read_file" });

    history.push(assistantFrom(first), {
      role: "tool",
      content: [{ type: "tool_result", toolCallId: "fc-1", name: "read_file", isError: false, content: [{ type: "text", text: "A" }] }],
    });
    await collect(history);
    const contents = fake.requests[1]!.body.contents;
    expect(contents[1].parts[0].functionCall).toEqual({ id: "fc-1", name: "read_file", args: { path: "a.ts" } });
    expect(contents[2].parts).toEqual([{ functionResponse: { id: "fc-1", name: "read_file", response: { output: "A" } } }]);
    expect(fake.violations).toEqual([]);
  });

  it("puts a tool result's image in the same user turn, after the function responses", async () => {
    fake.enqueue({ text: "A red square." });
    const png = Buffer.from("fake png bytes").toString("base64");
    await collect([
      user("Take a screenshot"),
      { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "screenshot", input: {} }] },
      {
        role: "tool",
        content: [{
          type: "tool_result", toolCallId: "c1", name: "screenshot", isError: false,
          content: [{ type: "text", text: "captured" }, { type: "image", mediaType: "image/png", data: png }],
        }],
      },
    ]);
    const contents = fake.requests[0]!.body.contents;
    expect(contents).toHaveLength(3);
    // A call from no Gemini model gets Google's documented stand-in signature (Gemini 3 needs one).
    expect(contents[1].parts[0].thoughtSignature).toBe("skip_thought_signature_validator");
    expect(contents[2]).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "screenshot", response: { output: "captured" } } },
        { text: "Image output of screenshot:" },
        { inlineData: { mimeType: "image/png", data: png } },
      ],
    });
    expect(fake.violations).toEqual([]);
  });

  it("sends only the newest three images of the conversation", async () => {
    fake.enqueue({ text: "ok" });
    const image = (n: number) => ({ type: "image" as const, mediaType: "image/png", data: Buffer.from(`img${n}`).toString("base64") });
    await collect([
      { role: "user", content: [image(1), image(2), { type: "text", text: "compare" }] },
      { role: "assistant", content: [{ type: "text", text: "Send more." }] },
      { role: "user", content: [image(3), image(4)] },
    ]);
    const parts = fake.requests[0]!.body.contents.flatMap((c: any) => c.parts);
    expect(parts.filter((p: any) => p.inlineData).map((p: any) => Buffer.from(p.inlineData.data, "base64").toString())).toEqual(["img2", "img3", "img4"]);
    expect(parts[0]).toEqual({ text: "[image omitted: only the newest 3 images are sent]" });
    expect(fake.violations).toEqual([]);
  });

  it("streams a thought summary and round-trips its signature", async () => {
    fake.enqueue({ thinking: "Weighing the options carefully.", text: "Option B." }, { text: "Yes." });
    const history: Message[] = [user("A or B?")];
    const first = await collect(history, { thinkingBudget: 2048 });

    expect(fake.requests[0]!.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 2048 });
    const thoughts = first.filter((e) => e.type === "thinking_delta").map((e) => e.text);
    expect(thoughts.join("")).toBe("Weighing the options carefully.");
    const kinds = first.map((e) => e.type);
    // Thinking ends before the answer starts.
    expect(kinds.indexOf("thinking_end")).toBeGreaterThan(kinds.lastIndexOf("thinking_delta"));
    expect(kinds.indexOf("thinking_end")).toBeLessThan(kinds.indexOf("text_delta"));
    const ends = first.filter((e) => e.type === "thinking_end");
    expect(ends[0]).toMatchObject({ text: "Weighing the options carefully." });
    // The answer's signature arrives on an empty trailing text part.
    const signature = (ends[1]?.providerData as { gemini?: { thoughtSignature?: string } })?.gemini?.thoughtSignature;
    expect(signature).toMatch(/^[A-Za-z0-9+/=]+$/);

    history.push(assistantFrom(first), user("Sure?"));
    await collect(history, { thinkingBudget: 2048 });
    expect(fake.requests[1]!.body.contents[1]).toEqual({
      role: "model",
      parts: [
        { text: "Weighing the options carefully.", thought: true },
        { text: "Option B." },
        { text: "", thoughtSignature: signature },
      ],
    });
    expect(fake.violations).toEqual([]);
  });

  it("drops another provider's thinking instead of sending its signature to Gemini", async () => {
    fake.enqueue({ text: "ok" });
    await collect([
      user("hi"),
      { role: "assistant", content: [{ type: "thinking", text: "claude thoughts", signature: "anthropic-sig" }, { type: "text", text: "hello" }] },
      user("again"),
    ]);
    expect(fake.requests[0]!.body.contents[1]).toEqual({ role: "model", parts: [{ text: "hello" }] });
    expect(fake.violations).toEqual([]);
  });

  it("reports usage with cached tokens as running totals, once per change, the last one final", async () => {
    fake.enqueue({ thinking: "Some thought.", text: "Answer text that spans chunks.", usage: { input: 100, output: 40, cacheRead: 60 } });
    const events = await collect([user("q")], { thinkingBudget: 256 });
    const usage = events.filter((e) => e.type === "usage");
    // The fake's chunks repeat the prompt count and add the output at the end: two changes.
    expect(usage).toHaveLength(2);
    expect(usage[0]).toMatchObject({ usage: { inputTokens: 100, cacheReadTokens: 60 } });
    expect(usage.at(-1)).toEqual({ type: "usage", usage: { inputTokens: 100, outputTokens: 40, cacheReadTokens: 60, cacheWriteTokens: 0 } });
    expect(fake.violations).toEqual([]);
  });

  it("maps MAX_TOKENS to max_tokens and SAFETY to a refusal naming the reason", async () => {
    fake.enqueue({ text: "Truncated ans", stop: "max_tokens" }, { text: "I can", stop: "refusal" });
    expect((await collect([user("long")])).at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
    const refused = await collect([user("bad")]);
    expect(refused.at(-1)).toEqual({ type: "stop", reason: "refusal", message: "Gemini stopped the response (SAFETY)" });
    expect(fake.violations).toEqual([]);
  });
});
