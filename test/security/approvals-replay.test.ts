/**
 * Issue 27, item 6: a revoked approval stays revoked. Deleting an entry of approvals.toml (or the
 * file) revokes it; restoring the old file (a remembered `git checkout -- .`, a backup) used to
 * bring it back, its signature covering only the project and the entry. Now each signature also
 * covers the project's approvals generation, kept in the user's state folder and moved on by the
 * revocation, so the restored entries grant nothing.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { approvalsPath } from "../../server/src/policy/approvals-file.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { isolateUserDirs } from "../helpers/user-dirs.js";

isolateUserDirs("agent-lsp-approvals-replay-");

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Prompts asked so far. */
const asked = () => h!.client.requests.filter((r) => r.method === "window/showMessageRequest").length;

/** A new session writing the new file `name`, answered `answer` if asked; how many prompts it took. */
async function edit(name: string, answer: string): Promise<number> {
  const before = asked();
  h!.client.script.showMessageRequest = () => answer;
  h!.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: name, content: "new\n" } }] }, { text: "done" });
  await h!.prompt(await h!.newSession(), "write");
  return asked() - before;
}

describe("a revoked approval", () => {
  it("stays revoked when an old approvals.toml is restored", async () => {
    h = await startAgentHarness({ options: { safety: "ask", remember_approvals: true, tools: { provider_native: false } } });
    const file = approvalsPath(h.root);
    expect(await edit("one.txt", "Yes, don't ask again")).toBe(1);
    expect(readFileSync(file, "utf8")).toMatch(/\[\[file\]\]\ntool = "write_file"\ndir = "\."\nsig = "[0-9a-f]{64}"/);
    // Remembered: the next session's edit is not asked.
    expect(await edit("two.txt", "No")).toBe(0);
    const committed = path.join(h.root, "approvals.committed");
    copyFileSync(file, committed);

    // The user revokes it (deletes the entry); the next edit is asked.
    rmSync(file);
    expect(await edit("three.txt", "No")).toBe(1);
    expect(existsSync(path.join(h.root, "three.txt"))).toBe(false);

    // The old file comes back: its entry grants nothing, and the user is told why.
    copyFileSync(committed, file);
    expect(await edit("four.txt", "No")).toBe(1);
    expect(existsSync(path.join(h.root, "four.txt"))).toBe(false);
    expect(h.client.messages.map((m) => m.message).join("\n")).toContain("1 entry was revoked earlier (an older approvals.toml came back) and grants nothing");
  });

  it("keeps the approvals that were not revoked, signed again", async () => {
    h = await startAgentHarness({ options: { safety: "ask", remember_approvals: true, tools: { provider_native: false } } });
    const file = approvalsPath(h.root);
    expect(await edit("one.txt", "Yes, don't ask again")).toBe(1);
    // A second remembered approval: a command.
    h.client.script.showMessageRequest = () => "Yes, don't ask again";
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "npm --version" } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "version");
    const both = readFileSync(file, "utf8");
    const fileEntry = /^\[\[file\]\]\n[^[]*/m.exec(both)![0];
    // The user deletes only the [[file]] entry.
    writeFileSync(file, both.replace(fileEntry, ""));
    expect(await edit("two.txt", "No")).toBe(1);
    // What stayed is signed for the new generation and still holds.
    const after = readFileSync(file, "utf8");
    expect(after).not.toMatch(/^\[\[file\]\]/m);
    expect(after).toMatch(/^\[\[program\]\]\nname = "npm"\nsig = "[0-9a-f]{64}"/m);
    expect(after).not.toBe(both.replace(fileEntry, ""));
    const before = asked();
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "npm --version" } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "version again");
    expect(asked() - before).toBe(0);
  });
});
