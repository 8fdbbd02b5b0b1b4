import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toAnthropicMessages, toAnthropicRequest } from "../../../server/src/providers/anthropic-convert.js";
import type { Message } from "../../../server/src/vocabulary/messages.js";
import type { ProviderRequest } from "../../../server/src/providers/provider.js";

const base: ProviderRequest = {
  model: "claude-sonnet-4-6",
  system: "",
  messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
  tools: [],
  maxTokens: 1000,
};

describe("toAnthropicMessages", () => {
  it("merges a tool result and the user message after it into one user turn, results first", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_call", id: "t1", name: "read_file", input: { path: "a" } }] },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "t1", name: "read_file", isError: false, content: [] }] },
      { role: "user", content: [{ type: "text", text: "and also this" }] },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a" } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1" },
          { type: "text", text: "and also this" },
        ],
      },
    ]);
  });

  it("drops blank text and unsigned thinking, which the API refuses", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "q" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "from another provider" },
          { type: "text", text: "  " },
          { type: "text", text: "answer" },
        ],
      },
    ];
    expect(toAnthropicMessages(messages)[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "answer" }] });
  });

  it("replays redacted thinking verbatim from providerData", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [{ type: "thinking", text: "", providerData: { type: "redacted_thinking", data: "EmwKAhgB" } }] },
    ];
    expect(toAnthropicMessages(messages)[1]!.content).toEqual([{ type: "redacted_thinking", data: "EmwKAhgB" }]);
  });

  it("sends a tool input that is not an object as {}", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [{ type: "tool_call", id: "t", name: "x", input: "broken" }] },
    ];
    expect(toAnthropicMessages(messages)[1]!.content).toEqual([{ type: "tool_use", id: "t", name: "x", input: {} }]);
  });
});

describe("toAnthropicRequest", () => {
  it("leaves out an empty system prompt and thinking when there is no budget", () => {
    const params = toAnthropicRequest(base);
    expect(params).not.toHaveProperty("system");
    expect(params).not.toHaveProperty("thinking");
    expect(params).not.toHaveProperty("tools");
  });

  it("raises max_tokens above a thinking budget that would not fit", () => {
    const params = toAnthropicRequest({ ...base, maxTokens: 1000, thinkingBudget: 4000 });
    expect(params.thinking).toEqual({ type: "enabled", budget_tokens: 4000 });
    expect(params.max_tokens).toBe(5000);
  });

  it("lifts a tiny thinking budget to the API's minimum", () => {
    expect(toAnthropicRequest({ ...base, maxTokens: 8000, thinkingBudget: 100 }).thinking).toEqual({
      type: "enabled",
      budget_tokens: 1024,
    });
  });

  it("lets a native tool replace our tool of the same name and ignores other providers' native tools", () => {
    const params = toAnthropicRequest({
      ...base,
      tools: [{ name: "bash", description: "ours", inputSchema: { type: "object" } }],
      nativeTools: [
        { kind: "anthropic_bash", name: "bash" },
        { kind: "openai_apply_patch", name: "apply_patch" },
      ],
    });
    expect(params.tools).toEqual([{ type: "bash_20250124", name: "bash" }]);
  });

  it("asks for prompt caching unless turned off", () => {
    expect(toAnthropicRequest(base).cache_control).toEqual({ type: "ephemeral" });
    expect(toAnthropicRequest(base, { promptCaching: false })).not.toHaveProperty("cache_control");
  });
});

describe("lazy SDK loading", () => {
  it("imports @anthropic-ai/sdk only as types at module level", () => {
    for (const file of ["anthropic.ts", "anthropic-convert.ts"]) {
      const source = readFileSync(new URL(`../../../server/src/providers/${file}`, import.meta.url), "utf8");
      const staticImports = source.split("\n").filter((line) => /^import\s.*["']@anthropic-ai\/sdk/.test(line));
      expect(staticImports.every((line) => line.startsWith("import type"))).toBe(true);
    }
  });
});
