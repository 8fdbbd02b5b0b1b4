/**
 * Approvals as editor prompts, over a real LSP connection to a client that has only
 * window/showMessageRequest: Yes, Yes don't ask again (scoped), No, a client that cannot answer,
 * cancel while a prompt is open, and read-only mode refusing without asking.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { sandboxMissing } from "../helpers/sandbox.js";
import { waitFor } from "../helpers/wait.js";
import { safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const prompts = () => h.client.requests.filter((r) => r.method === "window/showMessageRequest").map((r) => r.params);

describe("ask mode over window/showMessageRequest", () => {
  it("Yes: the tool call is announced pending, the prompt says what will happen in one line, and the write happens", async () => {
    h = await safetyHarness("ask");
    let pendingBeforePrompt = false;
    h.client.script.showMessageRequest = () => {
      pendingBeforePrompt = h.client.updatesOf("tool_call").some((u) => u.name === "write_file" && u.status === "pending");
      return "Yes";
    };
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "src/a.txt", content: "hello\n" } }] }, { text: "done" });
    const res = await h.prompt(await h.newSession(), "write it");
    expect(res.stopReason).toBe("end_turn");
    expect(pendingBeforePrompt).toBe(true);
    expect(prompts()).toHaveLength(1);
    expect(prompts()[0].message).toMatch(/^write_file: .*src\/a\.txt/);
    expect(prompts()[0].message).not.toContain("\n");
    expect(prompts()[0].actions).toEqual([{ title: "Yes" }, { title: "Yes, don't ask again" }, { title: "No" }]);
    expect(readFileSync(path.join(h.root, "src/a.txt"), "utf8")).toBe("hello\n");
    expect(h.fake.violations).toEqual([]);
  });

  it("Yes, don't ask again: no second prompt for the same tool and folder, a prompt for another folder", async () => {
    h = await safetyHarness("ask");
    h.client.script.showMessageRequest = () => "Yes, don't ask again";
    h.fake.enqueue(
      { toolCalls: [{ name: "write_file", input: { path: "src/a.txt", content: "a\n" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "src/b.txt", content: "b\n" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "docs/c.md", content: "c\n" } }] },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "write three files");
    expect(prompts().map((p) => p.message)).toEqual([expect.stringContaining("src/a.txt"), expect.stringContaining("docs/c.md")]);
    for (const f of ["src/a.txt", "src/b.txt", "docs/c.md"]) expect(existsSync(path.join(h.root, f))).toBe(true);
    expect(h.client.updatesOf("status").map((u) => u.text).join("\n")).toContain("Won't ask again in this session for write_file under");
  });

  it("a remembered program runs its next commands unasked in the sandbox (and, where there is none, is asked again)", async () => {
    h = await safetyHarness("ask");
    h.client.script.showMessageRequest = () => "Yes, don't ask again";
    h.fake.enqueue(
      { toolCalls: [{ name: "execute_command", input: { command: "touch one.txt" } }] },
      { toolCalls: [{ name: "execute_command", input: { command: "touch two.txt" } }] },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "touch twice");
    const missing = sandboxMissing();
    if (missing === undefined) {
      expect(prompts()).toHaveLength(1);
      expect(prompts()[0].message).toBe("execute_command: touch one.txt — sandboxed");
    } else {
      expect(prompts().map((p) => p.message)).toEqual([expect.stringContaining("— not sandboxed: "), expect.stringContaining("— not sandboxed: ")]);
    }
    expect(existsSync(path.join(h.root, "two.txt"))).toBe(true);
  });

  it("No: nothing is written and the model reads that the user declined", async () => {
    h = await safetyHarness("ask");
    h.client.script.showMessageRequest = () => "No";
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "src/a.txt", content: "x" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "write it");
    expect(existsSync(path.join(h.root, "src/a.txt"))).toBe(false);
    const [result] = toolResultsSent(h);
    expect(result).toMatchObject({ isError: true, text: expect.stringContaining("The user declined write_file") });
    expect(h.client.updatesOf("tool_call_update").at(-1)).toMatchObject({ status: "failed", output: expect.stringContaining("declined") });
  });

  it("a client with an agent UI answering MethodNotFound counts as No, and the update says why", async () => {
    // Without the agent protocol the chat file takes the question instead (chat-file.test.ts).
    h = await safetyHarness("ask", { capabilities: { ...defaultCapabilities(), experimental: { agent: {} } } });
    h.client.script.showMessageRequest = () => "method-not-found";
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "touch ran.txt" } }] }, { text: "ok" });
    const res = await h.prompt(await h.newSession(), "run it");
    expect(res.stopReason).toBe("end_turn");
    expect(existsSync(path.join(h.root, "ran.txt"))).toBe(false);
    const [result] = toolResultsSent(h);
    expect(result!.text).toMatch(/execute_command: touch ran\.txt.* was not approved: the user was not asked or gave no answer/);
    expect(result!.text).not.toContain("The user declined");
    expect(result!.text).toContain("MethodNotFound");
    expect(h.client.updatesOf("status").map((u) => u.text).join("\n")).toMatch(/MethodNotFound.*Counted as No/);
  });

  it("a dismissed prompt (null) counts as No", async () => {
    h = await safetyHarness("ask");
    h.client.script.showMessageRequest = () => null;
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "x" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "write it");
    expect(existsSync(path.join(h.root, "a.txt"))).toBe(false);
    expect(toolResultsSent(h)[0]!.text).toContain("dismissed");
  });

  it("agent/cancel while the prompt is open cancels the prompt and the turn; the tool never runs", async () => {
    h = await safetyHarness("ask");
    h.client.script.showMessageRequest = () => new Promise<string | null>(() => undefined); // the user is away
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "touch ran.txt" } }] });
    const id = await h.newSession();
    const answer = h.prompt(id, "run it");
    await waitFor(() => prompts().length > 0);
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    expect((await answer).stopReason).toBe("cancelled");
    await waitFor(() => h.client.updatesOf("tool_call_update").some((u) => u.status === "failed"));
    expect(existsSync(path.join(h.root, "ran.txt"))).toBe(false);
    // execute_command asks at authorize (so the prompt can name files it saves first): the call
    // went back to pending for the prompt and ended failed without running again.
    expect(h.client.updatesOf("tool_call_update").map((u) => u.status).slice(-2)).toEqual(["pending", "failed"]);
    // The session is usable again.
    h.fake.enqueue({ text: "fine" });
    await expect(h.prompt(id, "next")).resolves.toMatchObject({ stopReason: "end_turn" });
  });

  it("an unanswered prompt times out as No after approval_timeout_s", async () => {
    h = await safetyHarness("ask", { extra: { approval_timeout_s: 0.2 } });
    h.client.script.showMessageRequest = () => new Promise<string | null>(() => undefined);
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "x" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "write it");
    expect(existsSync(path.join(h.root, "a.txt"))).toBe(false);
    expect(toolResultsSent(h)[0]!.text).toContain("No answer within");
  });
});

describe("read-only modes", () => {
  it.each(["read_only", "plan"])("%s refuses a write with a reason, without asking, and the file stays as it was", async (mode) => {
    h = await safetyHarness(mode);
    const file = path.join(h.root, "keep.txt");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, "original\n");
    h.fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "keep.txt" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "keep.txt", content: "changed\n" } }] },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "change it");
    expect(readFileSync(file, "utf8")).toBe("original\n");
    expect(prompts()).toHaveLength(0);
    const [read, write] = toolResultsSent(h);
    expect(read).toMatchObject({ isError: false, text: expect.stringContaining("original") });
    expect(write).toMatchObject({ isError: true, text: expect.stringMatching(mode === "plan" ? /plan mode/ : /read-only/) });
    // The write tools stay offered, so the model gets this reason instead of a missing tool.
    expect(h.fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("write_file");
  });

  it("plan mode offers make_plan, whose plan reaches the editor", async () => {
    h = await safetyHarness("plan");
    h.fake.enqueue({ toolCalls: [{ name: "make_plan", input: { plan: ["Read the code", "Change it"] } }] }, { text: "planned" });
    await h.prompt(await h.newSession(), "plan it");
    expect(h.fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("make_plan");
    expect(h.client.updatesOf("plan")).toEqual([
      { kind: "plan", entries: [{ content: "Read the code", status: "pending" }, { content: "Change it", status: "pending" }] },
    ]);
  });
});
