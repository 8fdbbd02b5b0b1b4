/**
 * A megabyte tool call through the Gemini adapter and the real `@google/genai` SDK: Gemini sends a
 * call whole in one event, which the adapter parses as it streams and hands the SDK with
 * placeholders; the call must still come out whole, and the next request must carry exactly the
 * same arguments (and a megabyte tool result) back.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import { createGeminiProvider } from "../../../server/src/providers/gemini.js";
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

const WRITE_FILE = {
  name: "write_file",
  description: "Write a file",
  inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
};

function run(messages: Message[]) {
  const provider = createGeminiProvider({ name: "gemini", type: "gemini", apiKey: "test-key", baseUrl: fake.url, options: {} });
  const req: ProviderRequest = { model: "gemini-2.5-flash", system: "Be brief.", messages, tools: [WRITE_FILE], maxTokens: 1024 };
  return collectEvents(provider, req);
}

/** 3 MB of file text with what JSON escapes or UTF-8 spreads over several bytes (quotes, tabs, é, emoji). */
const BIG = `first "line"\t\\ é 😀\n${"y".repeat(60)}\n`.repeat(45_000) + "last line";

describe("a megabyte tool call through Gemini", () => {
  it("comes out whole from its one event, beside the small events around it", async () => {
    fake.enqueue({ text: "Writing it now.", toolCalls: [{ name: "write_file", input: { path: "big.txt", content: BIG, lines: 90_001, tags: ["a", "b"] } }] });
    const events = await run([user("write big.txt")]);
    expect(texts(events, "text_delta")).toBe("Writing it now.");
    const [call] = ofType(events, "tool_call_end");
    expect(call).toMatchObject({ name: "write_file", input: { path: "big.txt", lines: 90_001, tags: ["a", "b"] } });
    expect((call!.input as { content: string }).content === BIG).toBe(true);
    expect(events.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("sends the call's arguments and a megabyte result back exactly in the next request", async () => {
    fake.enqueue({ toolCalls: [{ id: "fc-big", name: "write_file", input: { path: "big.txt", content: BIG } }] }, { text: "Done." });
    const history: Message[] = [user("write big.txt")];
    const first = await run(history);
    const [call] = ofType(first, "tool_call_end");
    history.push(
      { role: "assistant", content: [{ type: "tool_call", id: call!.id, name: call!.name, input: call!.input, providerData: call!.providerData }] },
      { role: "tool", content: [{ type: "tool_result", toolCallId: call!.id, name: "write_file", isError: false, content: [{ type: "text", text: `wrote:${BIG}` }] }] },
    );
    const second = await run(history);
    expect(texts(second, "text_delta")).toBe("Done.");

    const contents = fake.requests[1]!.body.contents;
    expect(contents[1].parts[0].functionCall).toEqual({ id: "fc-big", name: "write_file", args: { path: "big.txt", content: BIG } });
    expect(contents[2].parts[0].functionResponse).toEqual({ id: "fc-big", name: "write_file", response: { output: `wrote:${BIG}` } });
    expect(JSON.stringify(fake.requests[1]!.body)).not.toContain("agent-lsp-large-string");
    expect(fake.violations).toEqual([]);
  });
});
