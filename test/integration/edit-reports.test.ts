/**
 * Edits to open documents with editors as they really are: one that applies an edit and sends
 * its didChange only seconds later (stock eglot, whose version counts every buffer change), one
 * that says applied and skips the edit, and one that never answers. The model is never told an
 * applied edit failed, never told of a revert that was not sent, and hears what the editor's
 * reports show when they come. Requests to the editor are withdrawn when the turn is cancelled.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { LspEditor } from "../../server/src/lsp/lsp-editor.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

async function start(options: Record<string, unknown> = {}): Promise<void> {
  h = await startAgentHarness({ options: { tools: { provider_native: false }, ...options } });
  // A short wait for reports: the lazy client here reports only when the test says.
  Object.assign(lspEditor().applyEditSettings ?? {}, { reportWindowMs: 100 });
}

const lspEditor = () => h.server.runtime()!.agent.deps.editor as unknown as LspEditor;
const at = (rel: string) => path.join(h.root, rel);
const uriOf = (rel: string) => pathToFileURL(at(rel)).href;
const edit = (target: string, replacement: string) => ({ name: "edit_file", input: { path: "a.ts", target_content: target, replacement_content: replacement } });
const read = { name: "read_file", input: { path: "a.ts" } };

/** Every tool result the model got, in order. */
function toolResults(): string[] {
  const last = h.fake.requests.at(-1)!.body.messages as any[];
  return last
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("\n")));
}

/** The last user message's text the model got. */
function lastUserText(): string {
  const messages = h.fake.requests.at(-1)!.body.messages as any[];
  const user = messages.filter((m) => m.role === "user").at(-1);
  return JSON.stringify(user.content);
}

describe("an editor that reports its changes late (eglot)", () => {
  it("counts the answered edit as applied, reads and edits on from it, and confirms when the didChange comes", async () => {
    await start();
    h.client.open(uriOf("a.ts"), "const a = 1;\nconst b = 2;\n");
    h.client.script.applyEdit = "lazy";
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [edit("a = 1", "a = 10")] }, { toolCalls: [read] }, { toolCalls: [edit("b = 2", "b = 20")] }, { text: "Both changed." });
    await h.prompt(id, "change both");
    const [first, reread, second] = toolResults();
    expect(first).toContain("Changed in the editor's buffer");
    expect(first).toContain("has not reported a.ts back yet");
    expect(first).not.toMatch(/did not change|put back|failed/);
    // The agent reads what it wrote, before the editor reported it.
    expect(reread).toContain("const a = 10;");
    // The second edit went unversioned (the editor's counter is unknown) and the client took it.
    expect(second).toContain("Changed in the editor's buffer");
    const sent = h.client.requests.filter((r) => r.method === "workspace/applyEdit").map((r) => r.params.edit.documentChanges[0].textDocument.version);
    expect(sent).toEqual([1, null]);
    expect(h.client.text(uriOf("a.ts"))).toBe("const a = 10;\nconst b = 20;\n");

    // Seconds later the user types: eglot sends both edits and the keystroke in one didChange.
    h.client.change(uriOf("a.ts"), "const a = 10;\nconst b = 20;\n// typed\n");
    let seen: Awaited<ReturnType<ReturnType<typeof lspEditor>["readDocument"]>>;
    const readA = async () => (seen = await lspEditor().readDocument(uriOf("a.ts")));
    for (let i = 0; i < 1000 && (await readA())?.version === null; i++) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toMatchObject({ text: "const a = 10;\nconst b = 20;\n// typed\n", version: 4 });
    // Confirmed quietly: no notice for the model, no warning for the user.
    expect(lspEditor().takeNotices(id)).toEqual([]);
    expect(h.client.messages).toEqual([]);

    // From now on the editor's real version goes with each edit, and it matches.
    h.fake.enqueue({ toolCalls: [read] }, { toolCalls: [edit("// typed", "// done")] }, { text: "ok" });
    await h.prompt(id, "once more");
    expect(toolResults().at(-1)).toContain("Changed in the editor's buffer");
    expect(h.client.requests.filter((r) => r.method === "workspace/applyEdit").at(-1)!.params.edit.documentChanges[0].textDocument.version).toBe(4);
    expect(h.fake.violations).toEqual([]);
  });
});

describe("an editor that says applied and skips the edit", () => {
  it("is found out by its next didChange: the model and the user are told then, and reads show the real text", async () => {
    await start();
    h.client.open(uriOf("a.ts"), "const a = 1;\n");
    h.client.script.applyEdit = "lie";
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [edit("a = 1", "a = 10")] }, { text: "Changed." });
    await h.prompt(id, "change it");
    expect(toolResults()[0]).toContain("has not reported a.ts back yet");

    // Later, the editor reports its text: the old one (plus a keystroke).
    h.client.change(uriOf("a.ts"), "const a = 1;\n\n");
    await waitFor(() => h.client.messages.length > 0);
    expect(h.client.messages[0]).toMatchObject({ type: 2, message: expect.stringContaining("answered that it applied the agent's edit of a.ts, but its text does not have it") });
    expect(h.client.updatesOf("status").map((u) => u.text).join("\n")).toContain("its latest report shows a.ts without it");

    // The model hears it with its next input, and its next read sees the real text.
    h.fake.enqueue({ toolCalls: [read] }, { text: "I see." });
    await h.prompt(id, "go on");
    expect(JSON.stringify(h.fake.requests.at(-2)!.body.messages.at(-1).content)).toContain(
      "Note from the editor: The editor had said it applied your edit of a.ts, but its latest report shows a.ts without it: the edit did not land.",
    );
    expect(toolResults().at(-1)).toContain("const a = 1;");
    expect(toolResults().at(-1)).not.toContain("a = 10");
    // No revert was claimed, and none was sent.
    expect(h.client.requests.filter((r) => r.method === "workspace/applyEdit")).toHaveLength(1);
  });
});

describe("an editor that does not answer", () => {
  it("withdraws the applyEdit after apply_edit_timeout_s, says the state is unknown, and reports when it lands", async () => {
    await start({ apply_edit_timeout_s: 0.3 });
    writeFileSync(at("closed.ts"), "closed\n");
    h.client.open(uriOf("a.ts"), "const a = 1;\n");
    h.client.script.applyEdit = "hang";
    const id = await h.newSession();
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-const a = 1;\n+const a = 10;\n*** Update File: closed.ts\n@@\n-closed\n+changed\n*** End Patch";
    h.fake.enqueue({ toolCalls: [{ name: "apply_patch", input: { patch } }] }, { text: "Waiting." });
    await h.prompt(id, "change it");
    const [result] = toolResults();
    expect(result).toMatch(/The editor did not answer the change to a\.ts \(No answer within 0\.3 s\.\)\. Whether it changed is not known yet; you will be told when the editor reports it\. Nothing else was written\./);
    expect(readFileSync(at("closed.ts"), "utf8")).toBe("closed\n");
    expect(h.client.cancelledRequests()).toEqual(["workspace/applyEdit"]);

    // The editor applies it after all, and reports it.
    h.client.script.applyEdit = "apply";
    h.client.change(uriOf("a.ts"), "const a = 10;\n");
    await waitFor(() => h.client.updatesOf("status").some((u) => /did land after all/.test(u.text)));
    h.fake.enqueue({ text: "Good." });
    await h.prompt(id, "and now?");
    expect(lastUserText()).toContain("Note from the editor: Your edit of a.ts, which the editor had not answered in time, did land after all");
  });

  it("withdraws an unanswered applyEdit and an unanswered prompt when the turn is cancelled", async () => {
    await start({ safety: "ask" });
    h.client.open(uriOf("a.ts"), "const a = 1;\n");
    h.client.script.applyEdit = "hang";
    h.client.script.showMessageRequest = (p) => (p.message.startsWith("edit_file") ? "Yes" : new Promise<string | null>(() => undefined));
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [edit("a = 1", "a = 10")] });
    const turn = h.prompt(id, "change it");
    await waitFor(() => h.client.requests.some((r) => r.method === "workspace/applyEdit"));
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    expect((await turn).stopReason).toBe("cancelled");
    await waitFor(() => h.client.cancelledRequests().includes("workspace/applyEdit"));

    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "true" } }] });
    const second = h.prompt(id, "run it");
    await waitFor(() => h.client.requests.filter((r) => r.method === "window/showMessageRequest").length === 2);
    await h.client.connection.sendNotification("agent/cancel", { sessionId: id });
    expect((await second).stopReason).toBe("cancelled");
    await waitFor(() => h.client.cancelledRequests().includes("window/showMessageRequest"));
    expect(h.client.cancelledRequests()).toEqual(["workspace/applyEdit", "window/showMessageRequest"]);
  });

  it("says what a turn is waiting for: $/progress for an executeCommand run (a plain client gets no agent/update)", async () => {
    await start({ safety: "ask" });
    lspEditor().waitNoticeMs = 50;
    writeFileSync(at("math.js"), "x\n");
    h.client.open(uriOf("math.js"), "x\n");
    let answer!: (title: string) => void;
    h.client.script.showMessageRequest = () => new Promise<string | null>((resolve) => (answer = resolve));
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "true" } }] }, { text: "Ran." });
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    await h.client.connection.sendRequest("workspace/executeCommand", { command: "agent.explain", arguments: [{ uri: uriOf("math.js"), range }] });
    const reports = () => h.client.requests.filter((r) => r.method === "$/progress").map((r) => r.params.value.message);
    await waitFor(() => reports().includes("Waiting for your answer in the editor…"));
    expect(h.client.updates).toEqual([]);
    answer("Yes");
    await waitFor(() => reports().includes("done"));
    expect(reports()).toContain("Answered in the editor.");
  });
});
