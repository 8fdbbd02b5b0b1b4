/**
 * Auto mode over the LSP: commands outside the sandbox go to the classifier, a short call to the
 * session's model through the same (fake) provider, which allows or refuses; the decision shows
 * as a status update; sandboxed commands and in-project edits run without it. And remembered approvals outlive the server.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { fakeProviderOptions } from "../helpers/agent-setup.js";
import { startLspPair } from "../helpers/lsp-pair.js";
import { skipWithoutSandbox } from "../helpers/sandbox.js";
import { classifierRequests, safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const statuses = () => h.client.updatesOf("status").map((u) => u.text as string);

describe("auto mode", () => {
  it.skipIf(skipWithoutSandbox())("runs a sandboxed command without the classifier or a prompt", async () => {
    h = await safetyHarness("auto");
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "touch built.txt" } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "build it");
    expect(existsSync(path.join(h.root, "built.txt"))).toBe(true);
    expect(classifierRequests(h)).toHaveLength(0);
    expect(toolResultsSent(h)[0]!.text).toMatch(/^Exit code: 0 \([\d.]+ s, sandboxed\)/);
    expect(h.client.requests.some((r) => r.method === "window/showMessageRequest")).toBe(false);
  });

  it("asks the classifier about a command outside the sandbox and runs it when it allows", async () => {
    h = await safetyHarness("auto");
    h.fake.enqueue(
      { toolCalls: [{ name: "execute_command", input: { command: "touch built.txt", outside_sandbox: "the build needs the network" } }] },
      { text: '{"decision": "allow", "reason": "creating a build marker is routine"}' },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "build it");
    expect(existsSync(path.join(h.root, "built.txt"))).toBe(true);
    const [classifier] = classifierRequests(h);
    expect(classifier).toBeDefined();
    expect(classifier!.body.tools).toBeUndefined();
    const asked = JSON.stringify(classifier!.body.messages);
    expect(asked).toContain("touch built.txt");
    expect(asked).toContain("build it"); // the user's request, as context
    expect(asked).toContain("outside the sandbox: the build needs the network");
    expect(statuses()).toContain("Safety check allowed: execute_command: touch built.txt — outside the sandbox: the build needs the network (creating a build marker is routine)");
    expect(h.client.requests.some((r) => r.method === "window/showMessageRequest")).toBe(false);
    expect(h.fake.violations).toEqual([]);
  });

  it("does not run a command the classifier refuses, and tells the model why", async () => {
    h = await safetyHarness("auto");
    h.fake.enqueue(
      { toolCalls: [{ name: "execute_command", input: { command: "touch secrets.txt", outside_sandbox: "it needs the network" } }] },
      { text: '{"decision": "deny", "reason": "not part of the task"}' },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "fix the typo");
    expect(existsSync(path.join(h.root, "secrets.txt"))).toBe(false);
    expect(toolResultsSent(h)[0]).toMatchObject({ isError: true, text: expect.stringContaining("not part of the task") });
    expect(statuses()).toContain("Safety check refused: execute_command: touch secrets.txt — outside the sandbox: it needs the network (not part of the task)");
  });

  it("falls back to the user when the classifier says ask", async () => {
    h = await safetyHarness("auto");
    h.client.script.showMessageRequest = () => "Yes";
    h.fake.enqueue(
      { toolCalls: [{ name: "execute_command", input: { command: "touch maybe.txt", outside_sandbox: "it needs the network" } }] },
      { text: "ask — not sure" },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "do it");
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toHaveLength(1);
    expect(existsSync(path.join(h.root, "maybe.txt"))).toBe(true);
  });

  it("runs an in-project edit without the classifier or a prompt", async () => {
    h = await safetyHarness("auto");
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "src/a.txt", content: "auto\n" } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "write it");
    expect(readFileSync(path.join(h.root, "src/a.txt"), "utf8")).toBe("auto\n");
    expect(classifierRequests(h)).toHaveLength(0);
    expect(h.fake.requests).toHaveLength(2);
  });

  it("full access still refuses a floor", async () => {
    h = await safetyHarness("full_access");
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "git push --force origin main" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "push");
    expect(toolResultsSent(h)[0]!.text).toContain("force_push_protected");
  });
});

describe("remember_approvals", () => {
  it("keeps a don't-ask-again in approvals.toml, and a new server honours it", async () => {
    h = await safetyHarness("ask", { extra: { remember_approvals: true } });
    h.client.script.showMessageRequest = () => "Yes, don't ask again";
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "touch first.txt" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "touch");
    expect(readFileSync(path.join(h.root, ".agent-lsp", "approvals.toml"), "utf8")).toContain('[[program]]\nname = "touch"');

    const other = await startLspPair({
      root: h.root,
      initializationOptions: fakeProviderOptions(h.fake, { safety: "ask", remember_approvals: true, tools: { provider_native: false } }),
    });
    try {
      other.client.script.showMessageRequest = () => "No";
      h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "touch second.txt" } }] }, { text: "ok" });
      const { sessionId } = (await other.client.connection.sendRequest("agent/newSession", {})) as { sessionId: string };
      await other.client.connection.sendRequest("agent/prompt", { sessionId, prompt: "touch again" });
      expect(other.client.requests.filter((r) => r.method === "window/showMessageRequest")).toHaveLength(0);
      expect(existsSync(path.join(h.root, "second.txt"))).toBe(true);
    } finally {
      await other.close();
    }
  });
});
