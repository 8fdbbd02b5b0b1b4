/**
 * Provider-native tools through the loop: the model gets its own tool definitions, each native
 * call runs as our tool (so the gate and checkpoints see it), and history replays the call in
 * the model's own shape. Our tools here are recording stand-ins with the real names.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../server/src/tools/define-tool.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

const ran: { name: string; input: unknown }[] = [];

async function harness(options: Record<string, unknown> = {}) {
  h = await startAgentHarness({ options });
  ran.length = 0;
  const registry = h.server.runtime()!.registry;
  for (const name of ["read_file", "write_file", "edit_file", "execute_command", "apply_patch"]) {
    registry.unregister(name);
    registry.register(
      defineTool({
        name,
        description: `stand-in ${name}`,
        input: z.record(z.string(), z.unknown()),
        policyClass: "read_only",
        category: "test",
        execute: async (input) => {
          ran.push({ name, input });
          return `${name} ran`;
        },
      }),
    );
  }
}

describe("Anthropic native tools", () => {
  it("offers the text editor and bash in place of our file tools and runs calls as ours", async () => {
    await harness();
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "str_replace_based_edit_tool", input: { command: "view", path: "a.txt", view_range: [2, 3] } },
          { name: "str_replace_based_edit_tool", input: { command: "str_replace", path: "a.txt", old_str: "x", new_str: "y" } },
          { name: "bash", input: { command: "ls" } },
          { name: "str_replace_based_edit_tool", input: { command: "undo_edit", path: "a.txt" } },
        ],
      },
      { text: "done" },
    );
    const id = await h.newSession();
    await h.prompt(id, "go");
    const first = h.fake.requests[0]!.body;
    const toolNames = first.tools.map((t: any) => t.name);
    expect(first.tools).toEqual(expect.arrayContaining([expect.objectContaining({ type: "text_editor_20250728", name: "str_replace_based_edit_tool" }), expect.objectContaining({ type: "bash_20250124", name: "bash" })]));
    expect(toolNames).not.toContain("read_file");
    expect(toolNames).not.toContain("edit_file");
    expect(toolNames).toContain("execute_command");
    expect(ran).toEqual([
      { name: "read_file", input: { path: "a.txt", start_line: 2, line_count: 2 } },
      { name: "edit_file", input: { path: "a.txt", target_content: "x", replacement_content: "y" } },
      { name: "execute_command", input: { command: "ls", timeout_secs: 600 } },
    ]);
    const replay = h.fake.requests[1]!.body.messages[1].content.filter((b: any) => b.type === "tool_use");
    expect(replay.map((b: any) => [b.name, b.input.command])).toEqual([
      ["str_replace_based_edit_tool", "view"],
      ["str_replace_based_edit_tool", "str_replace"],
      ["bash", "ls"],
      ["str_replace_based_edit_tool", "undo_edit"],
    ]);
    // The editor is told the call as the model wrote it, beside our tool that runs it.
    const announced = h.client.updatesOf("tool_call").map((u) => [u.name, u.modelName, u.modelInput?.command, u.modelInput?.old_str]);
    expect(announced).toEqual([
      ["read_file", "str_replace_based_edit_tool", "view", undefined],
      ["edit_file", "str_replace_based_edit_tool", "str_replace", "x"],
      ["execute_command", "bash", "ls", undefined],
      ["str_replace_based_edit_tool", "str_replace_based_edit_tool", "undo_edit", undefined],
    ]);
    const results = h.fake.requests[1]!.body.messages[2].content;
    expect(results[3]).toMatchObject({ is_error: true });
    expect(JSON.stringify(results[3].content)).toContain("/undo");
    expect(h.fake.violations).toEqual([]);
  });

  it("sends our schemas when provider_native = false", async () => {
    await harness({ tools: { provider_native: false } });
    h.fake.enqueue({ text: "ok" });
    await h.prompt(await h.newSession(), "go");
    const tools = h.fake.requests[0]!.body.tools;
    expect(tools.every((t: any) => t.type === undefined || t.type === "custom")).toBe(true);
    expect(tools.map((t: any) => t.name)).toContain("read_file");
  });

  it("falls back to our schemas for the rest of the session when the API rejects the native tools", async () => {
    await harness();
    h.fake.enqueue({ error: { status: 400, message: "tools.0: Input tag 'text_editor_20250728' found using 'type' does not match any of the expected tags" } }, { text: "fine" }, { text: "still ours" });
    const id = await h.newSession();
    await expect(h.prompt(id, "go")).resolves.toMatchObject({ stopReason: "end_turn" });
    await h.prompt(id, "again");
    const [, second, third] = h.fake.requests.map((r) => r.body.tools.map((t: any) => t.name));
    expect(second).toContain("read_file");
    expect(third).toContain("read_file");
    expect(third).not.toContain("str_replace_based_edit_tool");
    expect(h.client.updatesOf("status").map((u) => u.text).join("\n")).toContain("rejected its native tools");
  });
});

describe("OpenAI native apply_patch", () => {
  it("runs apply_patch_call as our apply_patch and replays it as apply_patch_call + output", async () => {
    h = await startAgentHarness({ api: "openai" });
    const fake = h.fake;
    ran.length = 0;
    const registry = h.server.runtime()!.registry;
    registry.unregister("apply_patch");
    registry.register(
      defineTool({
        name: "apply_patch",
        description: "stand-in",
        input: z.object({ patch: z.string() }),
        policyClass: "read_only",
        category: "test",
        execute: async (input) => {
          ran.push({ name: "apply_patch", input });
          return "A hello.txt";
        },
      }),
    );
    fake.enqueue({ toolCalls: [{ name: "apply_patch", nativeKind: "apply_patch_call", input: { type: "create_file", path: "hello.txt", diff: "+hi\n" } }] }, { text: "created" });
    const id = await h.newSession();
    await h.prompt(id, "make hello");
    expect(fake.requests[0]!.body.tools).toEqual(expect.arrayContaining([{ type: "apply_patch" }]));
    expect(ran).toHaveLength(1);
    expect((ran[0]!.input as { patch: string }).patch).toContain("*** Add File: hello.txt");
    const input = fake.requests[1]!.body.input;
    expect(input.map((i: any) => i.type)).toEqual(expect.arrayContaining(["apply_patch_call", "apply_patch_call_output"]));
    expect(fake.violations).toEqual([]);
  });
});
