/**
 * A model that streams a large argument (a write_file of 200 KB): the file gets every byte, while
 * the editor is shown the input's first and last part in the call's update and its permission
 * prompt (the change itself reaches it as the edit and the diff).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { richCapabilities } from "./safety-helpers.js";

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("a large tool input", () => {
  it("is written whole but shown to the editor as its first and last part", async () => {
    h = await startAgentHarness({ options: { safety: "ask", tools: { provider_native: false } }, capabilities: richCapabilities() });
    const prompts: any[] = [];
    h.client.script.requestPermission = (p) => {
      prompts.push(p);
      return { optionId: "allow_once" };
    };
    const content = `FIRST LINE\n${"middle line of the new file\n".repeat(8_000)}LAST LINE\n`;
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "big.txt", content } }], chunkSize: 1 << 14 }, { text: "Written." });
    const id = await h.newSession();
    await h.prompt(id, "write big.txt");
    expect(readFileSync(path.join(h.root, "big.txt"), "utf8")).toBe(content);
    const shown = h.client.updatesOf("tool_call").find((u) => u.name === "write_file")!.input as { path: string; content: string };
    expect(shown.path).toBe("big.txt");
    expect(shown.content.length).toBeLessThan(17_000);
    expect(shown.content).toMatch(/^FIRST LINE\n[^]*\n\[… [\d,]+ characters not shown …\]\n[^]*LAST LINE\n$/);
    expect(prompts).toHaveLength(1);
    expect(prompts[0].toolCall.input.content).toBe(shown.content);
  });
});
