/**
 * Issue 27, item 5, the third fault: a refused permission (EACCES) under the state folder ends
 * the affected turn (or request) with a message naming the path and the fault, and the server
 * goes on; a checkout its user may not write opens with its state in the user's state folder.
 *
 * Root is never refused, so these cases run as an ordinary user: CI runs this file again as the
 * user `agentlsp-test` (test/security/faults-unprivileged.test.ts); run as root, it skips.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";
import { isolateUserDirs } from "../helpers/user-dirs.js";
import { waitFor } from "../helpers/wait.js";

const dirs = isolateUserDirs("agent-lsp-eacces-");

let h: AgentHarness | undefined;
const undo: (() => void)[] = [];
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  for (const step of undo.splice(0).reverse()) step();
});

/** A project folder (made writable again and removed after the test). */
function project(): string {
  const root = tempProject("agent-lsp-eacces-");
  undo.push(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(path.join(root, "app.txt"), "one\n");
  return root;
}

/** `dir` made read-only to its owner (and writable again after the test). */
function refuse(dir: string): void {
  chmodSync(dir, 0o555);
  undo.push(() => chmodSync(dir, 0o755));
}

/** The messages of the error updates of one session. */
function errorsOf(sessionId: string): string {
  return h!.client.updates.filter((u) => u.sessionId === sessionId && u.update.kind === "error").map((u) => u.update.message).join("\n");
}

const EDIT = { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "one", replacement_content: "two" } }] };

const asRoot = process.getuid?.() === 0;

describe.skipIf(asRoot)("a refused permission (EACCES)", () => {
  it("runs as an ordinary user (the uid the runner expects)", () => {
    const expected = process.env.AGENT_LSP_EXPECT_UID;
    if (expected !== undefined) expect(String(process.getuid?.())).toBe(expected);
    expect(process.getuid?.()).not.toBe(0);
  });

  it("on the conversations folder refuses the session with the reason, and the server goes on", async () => {
    const root = project();
    mkdirSync(path.join(root, ".agent-lsp", "conversations"), { recursive: true });
    refuse(path.join(root, ".agent-lsp", "conversations"));
    h = await startAgentHarness({ root, options: { tools: { provider_native: false } } });
    await expect(h.newSession()).rejects.toThrow(/conversation.*\/\.agent-lsp\/conversations\S*: permission denied \(EACCES\)/);
    const listed = await h.client.connection.sendRequest("agent/listSessions", {});
    expect(listed).toEqual({ sessions: [] });
  });

  it("on the checkpoints ends the turn before the change, and the session goes on", async () => {
    const root = project();
    mkdirSync(path.join(root, ".agent-lsp", "checkpoints"), { recursive: true });
    refuse(path.join(root, ".agent-lsp", "checkpoints"));
    h = await startAgentHarness({ root, options: { tools: { provider_native: false } } });
    const id = await h.newSession();
    h.fake.enqueue(EDIT, { text: "never asked" });
    expect((await h.prompt(id, "edit")).stopReason).toBe("error");
    expect(errorsOf(id)).toMatch(/^Could not save checkpoint \S+ before the change \(nothing was changed\) \(.*\): permission denied \(EACCES\)\./);
    expect(readFileSync(path.join(root, "app.txt"), "utf8")).toBe("one\n");
    h.fake.enqueue({ text: "still here" });
    expect((await h.prompt(id, "hi")).stopReason).toBe("end_turn");
  });

  it("on the state folder fails the chat file and approvals.toml with the reason, and the edit still happens", async () => {
    const root = project();
    h = await startAgentHarness({ root, options: { tools: { provider_native: false }, safety: "ask", remember_approvals: true } });
    const id = await h.newSession();
    const state = path.join(root, ".agent-lsp");
    for (const name of ["checkpoints", "journal"]) mkdirSync(path.join(state, name), { recursive: true });
    refuse(state);
    await expect(h.client.connection.sendRequest("workspace/executeCommand", { command: "agent.openChat", arguments: [] })).rejects.toThrow(
      /Could not write the chat file \/\S*\.agent-lsp\/chat\.md( \(\S+\))?: permission denied \(EACCES\)/,
    );
    h.client.script.showMessageRequest = () => "Yes, don't ask again";
    h.fake.enqueue(EDIT, { text: "edited" });
    expect((await h.prompt(id, "edit")).stopReason).toBe("end_turn");
    expect(readFileSync(path.join(root, "app.txt"), "utf8")).toBe("two\n");
    await waitFor(() => h!.client.messages.some((m) => m.message.includes("approvals.toml")), 30_000);
    const warning = h.client.messages.find((m) => m.message.includes("approvals.toml"))!.message;
    expect(warning).toMatch(/Could not write \/\S*\.agent-lsp\/approvals\.toml( \(\S+\))?: permission denied \(EACCES\)\. The approval is kept for this session only\.$/);
    expect(existsSync(path.join(state, "approvals.toml"))).toBe(false);
  });

  it("on the whole checkout opens read_only with its state in the user's state folder, and says why a change cannot be made", async () => {
    const root = project();
    refuse(root);
    h = await startAgentHarness({ root, options: { tools: { provider_native: false } } });
    const reader = await h.newSession({ mode: "read_only" });
    h.fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "app.txt" } }] }, { text: "It says one." });
    expect((await h.prompt(reader, "read app.txt")).stopReason).toBe("end_turn");
    const projects = path.join(dirs.home, "state", "agent-lsp", "projects");
    const [folder] = readdirSync(projects).filter((n) => n.startsWith(path.basename(root)));
    expect(existsSync(path.join(projects, folder!, "conversations", `${reader}.jsonl`))).toBe(true);
    expect(existsSync(path.join(root, ".agent-lsp"))).toBe(false);
    const writer = await h.newSession();
    h.fake.enqueue(EDIT, { text: "could not" });
    expect((await h.prompt(writer, "edit")).stopReason).toBe("end_turn");
    const statuses = h.client.updatesOf("status").map((u) => u.text);
    expect(statuses.find((s) => s.startsWith("This project cannot be written"))).toContain(`${root} is on a read-only file system, or not yours to write`);
    expect(readFileSync(path.join(root, "app.txt"), "utf8")).toBe("one\n");
  });
});
