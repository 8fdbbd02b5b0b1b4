/**
 * The memory tool through the loop: notes persist across sessions (the next session's system
 * prompt lists them), paths leading out of the stores are refused, writes pass the gate, and on
 * Anthropic the model gets the native memory tool whose calls run as ours.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let harnesses: AgentHarness[] = [];
let dataHome: string;
let savedDataHome: string | undefined;
beforeEach(() => {
  savedDataHome = process.env.XDG_DATA_HOME;
  dataHome = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-data-")));
  process.env.XDG_DATA_HOME = dataHome;
});
afterEach(async () => {
  const open = harnesses;
  harnesses = [];
  for (const h of open.reverse()) await h.dispose();
  if (savedDataHome === undefined) delete process.env.XDG_DATA_HOME;
  else process.env.XDG_DATA_HOME = savedDataHome;
  rmSync(dataHome, { recursive: true, force: true });
});

async function harness(options: Record<string, unknown> = {}, root?: string): Promise<AgentHarness> {
  const h = await startAgentHarness({ ...(root ? { root } : {}), options });
  harnesses.push(h);
  return h;
}

/** The tool results of the last request the fake received, as text. */
function lastResults(h: AgentHarness): string {
  return JSON.stringify(h.fake.requests.at(-1)!.body.messages.at(-1));
}

describe("memory", () => {
  it("keeps notes across sessions: the next session's system prompt lists them", async () => {
    const first = await harness({ tools: { provider_native: false } });
    const id = await first.newSession();
    first.fake.enqueue(
      {
        toolCalls: [
          { name: "memory", input: { command: "create", path: "project/build.md", file_text: "Build with make -j4\nthen run ./check" } },
          { name: "memory", input: { command: "create", path: "/memories/user/style.md", file_text: "Prefers tabs" } },
          { name: "memory", input: { command: "str_replace", path: "project/build.md", old_str: "-j4", new_str: "-j8" } },
        ],
      },
      { text: "noted" },
    );
    await first.prompt(id, "remember how to build");
    expect(lastResults(first)).toContain("Created project/build.md");
    expect(readFileSync(path.join(first.root, ".agent-lsp", "memory", "build.md"), "utf8")).toBe("Build with make -j8\nthen run ./check");
    expect(readFileSync(path.join(dataHome, "agent-lsp", "memory", "style.md"), "utf8")).toBe("Prefers tabs");

    const second = await harness({ tools: { provider_native: false } }, first.root);
    const next = await second.newSession();
    second.fake.enqueue({ toolCalls: [{ name: "memory", input: { command: "view", path: "project/build.md" } }] }, { text: "ok" });
    await second.prompt(next, "build it");
    const system = JSON.stringify(second.fake.requests[0]!.body.system);
    expect(system).toContain("project/build.md: Build with make -j8");
    expect(system).toContain("user/style.md: Prefers tabs");
    expect(lastResults(second)).toContain("     1\\tBuild with make -j8");
  });

  it("runs a message's memory calls one after another, and shows no project locations for them", async () => {
    const h = await harness({ tools: { provider_native: false } });
    const id = await h.newSession();
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "memory", input: { command: "create", path: "project/a.md", file_text: "one" } },
          { name: "memory", input: { command: "str_replace", path: "/memories/project/a.md", old_str: "one", new_str: "two" } },
          { name: "memory", input: { command: "view", path: "project/a.md" } },
        ],
      },
      { text: "ok" },
    );
    await h.prompt(id, "go");
    expect(h.fake.requests[1]!.body.messages.at(-1).content.map((r: any) => r.is_error ?? false)).toEqual([false, false, false]);
    expect(lastResults(h)).toContain("     1\\ttwo");
    expect(h.client.updatesOf("tool_call").map((u) => u.locations)).toEqual([undefined, undefined, undefined]);
  });

  it("refuses paths out of the stores and names what exists for a missing file", async () => {
    const h = await harness({ tools: { provider_native: false } });
    const id = await h.newSession();
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "memory", input: { command: "create", path: "project/../../escape.md", file_text: "x" } },
          { name: "memory", input: { command: "create", path: "/etc/agent-lsp-escape.md", file_text: "x" } },
          { name: "memory", input: { command: "create", path: "project/a.md", file_text: "a" } },
          { name: "memory", input: { command: "view", path: "project/missing.md" } },
          { name: "memory", input: { command: "delete", path: "project/missing.md" } },
          { name: "memory", input: { command: "create", path: "project", file_text: "x" } },
          { name: "memory", input: { command: "view", path: "user" } },
        ],
      },
      { text: "ok" },
    );
    await h.prompt(id, "go");
    const results = h.fake.requests[1]!.body.messages.at(-1).content;
    expect(results.map((r: any) => r.is_error ?? false)).toEqual([true, true, false, true, true, true, false]);
    expect(JSON.stringify(results[5])).toContain("name a file inside project/, not the store itself");
    expect(JSON.stringify(results[6])).toContain("user/ is empty.");
    expect(JSON.stringify(results[0])).toContain("not allowed");
    expect(JSON.stringify(results[1])).toContain("absolute path");
    expect(JSON.stringify(results[3])).toContain("No memory file project/missing.md. Memory files: project/a.md.");
    expect(existsSync(path.join(h.root, "..", "escape.md"))).toBe(false);
    expect(existsSync("/etc/agent-lsp-escape.md")).toBe(false);
  });

  it("writes pass the gate: a read-only session is refused and nothing is written", async () => {
    const h = await harness({ tools: { provider_native: false }, safety: "read_only" });
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "memory", input: { command: "create", path: "project/n.md", file_text: "x" } }] }, { text: "ok" });
    await h.prompt(id, "go");
    expect(lastResults(h)).toMatch(/"is_error":true/);
    expect(existsSync(path.join(h.root, ".agent-lsp", "memory", "n.md"))).toBe(false);
  });

  it("on Anthropic, offers the native memory tool in place of ours and runs its calls as ours", async () => {
    const h = await harness();
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "memory", input: { command: "create", path: "/memories/project/n.md", file_text: "native note" } }] }, { text: "ok" });
    await h.prompt(id, "go");
    const tools = h.fake.requests[0]!.body.tools;
    expect(tools).toContainEqual({ type: "memory_20250818", name: "memory" });
    expect(tools.filter((t: any) => t.name === "memory")).toHaveLength(1);
    expect(readFileSync(path.join(h.root, ".agent-lsp", "memory", "n.md"), "utf8")).toBe("native note");
    // Sent back as the model wrote it.
    const use = h.fake.requests[1]!.body.messages[1].content.find((b: any) => b.type === "tool_use");
    expect(use).toMatchObject({ name: "memory", input: { command: "create", path: "/memories/project/n.md" } });
    expect(h.fake.violations).toEqual([]);
  });
});
