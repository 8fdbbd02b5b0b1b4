/**
 * `[tools] profile` and tool_help: what the lite profile offers and how it describes it, and the
 * documentation tool_help returns in its place.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { LITE_TOOLS } from "../../server/src/tools/profiles.js";
import { safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

/** In full_access the lite set is offered whole but for make_plan, which only plan mode offers. */
const LITE_IN_FULL_ACCESS = LITE_TOOLS.filter((name) => name !== "make_plan");

describe("the lite profile", () => {
  it("offers the core set only, each with a one-sentence description", async () => {
    h = await safetyHarness("full_access", { extra: { tools: { provider_native: false, profile: "lite" } } });
    h.fake.enqueue({ text: "ok" });
    await h.prompt(await h.newSession(), "go");
    const tools = h.fake.requests[0]!.body.tools as { name: string; description: string }[];
    expect(tools.map((t) => t.name).sort()).toEqual([...LITE_IN_FULL_ACCESS].sort());
    for (const t of tools) expect(t.description).toMatch(/^[^.!?]*[.!?]?$/);
    expect(tools.find((t) => t.name === "task_create")!.description).toBe("Add items to your checklist (shown to the user).");
  });

  it("offers make_plan in plan mode, and refuses a tool outside the set as unknown", async () => {
    h = await safetyHarness("plan", { extra: { tools: { provider_native: false, profile: "lite" } } });
    h.fake.enqueue({ toolCalls: [{ name: "web_fetch", input: { url: "https://example.com" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "go");
    expect(h.fake.requests[0]!.body.tools.map((t: any) => t.name)).toContain("make_plan");
    expect(toolResultsSent(h)[0]).toMatchObject({ isError: true, text: expect.stringContaining('There is no tool "web_fetch"') });
  });

  it("the standard profile offers the full descriptions and every tool", async () => {
    h = await safetyHarness("full_access");
    h.fake.enqueue({ text: "ok" });
    await h.prompt(await h.newSession(), "go");
    const names = h.fake.requests[0]!.body.tools.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining([...LITE_IN_FULL_ACCESS, "edit_file", "apply_patch", "agent", "use_subagents", "spawn_task", "change_todo_list"]));
  });
});

describe("tool_help", () => {
  it("returns when to use a tool, examples, failure modes and its schema; an unknown name gets the offered ones", async () => {
    h = await safetyHarness("full_access");
    h.fake.enqueue({ toolCalls: [{ name: "tool_help", input: { name: "task_update" } }, { name: "tool_help", input: { name: "nope" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "go");
    const [help, unknown] = toolResultsSent(h);
    expect(help!.isError).toBe(false);
    expect(help!.text).toContain("# task_update");
    expect(help!.text).toContain("## When to use\nEach time you start or finish a checklist item.");
    expect(help!.text).toContain('- {"id": "2", "status": "in_progress"}');
    expect(help!.text).toContain("## Failure modes");
    expect(help!.text).toContain('"status"');
    expect(unknown).toMatchObject({ isError: true, text: expect.stringMatching(/not offered a tool named "nope"\. Your tools: .*read_file/) });
  });
});
