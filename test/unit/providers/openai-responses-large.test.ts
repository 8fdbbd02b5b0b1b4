/**
 * A megabyte tool call through the OpenAI Responses adapter and the real `openai` SDK. The API
 * sends such a call three times over (its argument deltas, then the arguments whole in the
 * arguments' done, the item's done and the completed response): the adapter parses the deltas as
 * they stream and hands the SDK the whole-arguments events with placeholders. The call must still
 * come out whole, a native apply_patch diff of megabytes too, and the next request must carry
 * exactly the same arguments (and a megabyte tool result) back.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../../../server/src/vocabulary/messages.js";
import { createOpenAIResponsesProvider } from "../../../server/src/providers/openai-responses.js";
import type { ProviderRequest } from "../../../server/src/providers/provider.js";
import { startFakeProvider, type FakeProvider } from "../../helpers/fake-provider/index.js";
import { collectEvents, ofType, texts, userText as user } from "../../helpers/provider-events.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await fake.close();
});

const WRITE_FILE: ToolDefinition = {
  name: "write_file",
  description: "Write a file",
  inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
};
const APPLY_PATCH: ToolDefinition = { name: "apply_patch", description: "Apply a patch", inputSchema: { type: "object", properties: { patch: { type: "string" } } } };

function run(messages: Message[], overrides: Partial<ProviderRequest> = {}) {
  const provider = createOpenAIResponsesProvider({ name: "openai", type: "openai", apiKey: "sk-test", baseUrl: `${fake.url}/v1`, options: {} });
  return collectEvents(provider, { model: "gpt-4.1", system: "Be brief.", messages, tools: [WRITE_FILE], maxTokens: 1024, ...overrides });
}

/** Argument deltas of 64 KB (the fake's default of 8 characters makes 400,000 events of 3 MB). */
const PIECE = 64 * 1024;

/** 3 MB of file text with what JSON escapes or UTF-8 spreads over several bytes (quotes, tabs, é, emoji). */
const BIG = `first "line"\t\\ é 😀\n${"y".repeat(60)}\n`.repeat(45_000) + "last line";

describe("a megabyte tool call through the Responses API", () => {
  it("comes out whole, beside the text around it", async () => {
    fake.enqueue({ chunkSize: PIECE, text: "Writing it now.", toolCalls: [{ name: "write_file", input: { path: "big.txt", content: BIG, lines: 90_001, tags: ["a", "b"] } }] });
    const events = await run([user("write big.txt")]);
    expect(texts(events, "text_delta")).toBe("Writing it now.");
    const [call] = ofType(events, "tool_call_end");
    expect(call).toMatchObject({ name: "write_file", input: { path: "big.txt", lines: 90_001, tags: ["a", "b"] } });
    expect((call!.input as { content: string }).content === BIG).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "tool_use" });
  });

  it("a native apply_patch_call whose diff is megabytes comes out whole", async () => {
    const operation = { type: "create_file", path: "big.txt", diff: `+${BIG.split("\n").join("\n+")}` };
    fake.enqueue({ toolCalls: [{ id: "call_p", name: "apply_patch", nativeKind: "apply_patch_call", input: operation }] });
    const events = await run([user("patch it")], { tools: [WRITE_FILE, APPLY_PATCH], nativeTools: [{ kind: "openai_apply_patch", name: "apply_patch" }] });
    const [call] = ofType(events, "tool_call_end");
    expect((call!.input as { diff: string }).diff === operation.diff).toBe(true);
  });

  it("sends the call's arguments and a megabyte result back exactly in the next request", async () => {
    fake.enqueue({ chunkSize: PIECE, toolCalls: [{ id: "call_big", name: "write_file", input: { path: "big.txt", content: BIG } }] }, { text: "Done." });
    const history: Message[] = [user("write big.txt")];
    const [call] = ofType(await run(history), "tool_call_end");
    history.push(
      { role: "assistant", content: [{ type: "tool_call", id: call!.id, name: call!.name, input: call!.input }] },
      { role: "tool", content: [{ type: "tool_result", toolCallId: call!.id, name: "write_file", isError: false, content: [{ type: "text", text: `wrote:${BIG}` }] }] },
    );
    expect(texts(await run(history), "text_delta")).toBe("Done.");

    const input = fake.requests[1]!.body.input as { type: string; arguments?: string; output?: unknown }[];
    const sent = input.find((item) => item.type === "function_call")!;
    expect(sent.arguments === JSON.stringify({ path: "big.txt", content: BIG })).toBe(true);
    expect(JSON.stringify(input.find((item) => item.type === "function_call_output")!.output)).toContain("wrote:first");
    expect(JSON.stringify(fake.requests[1]!.body)).not.toContain("agent-lsp-large-string");
    expect(fake.violations).toEqual([]);
  });
});
