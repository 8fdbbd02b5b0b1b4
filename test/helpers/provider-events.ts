/** What the provider adapter tests share: a stock tool and prompt, and ways to read an event stream. */
import type { Message, ToolDefinition } from "../../server/src/vocabulary/messages.js";
import type { Provider, ProviderEvent, ProviderRequest } from "../../server/src/providers/provider.js";

/** A read_file tool definition in the neutral form. */
export const readFileTool: ToolDefinition = {
  name: "read_file",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** A user message of one text block. */
export const userText = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

/** Every event of one `stream` call. */
export async function collectEvents(provider: Provider, req: ProviderRequest, signal = new AbortController().signal): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(req, signal)) events.push(event);
  return events;
}

/** The streamed text (or thinking) joined. */
export const texts = (events: ProviderEvent[], type: "text_delta" | "thinking_delta"): string =>
  events.flatMap((e) => (e.type === type ? [e.text] : [])).join("");

/** The events of one type, typed. */
export const ofType = <T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T) =>
  events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
