/**
 * The git tools through the server: in `ask` mode git_write is asked with its exact command
 * (Yes commits, No leaves the repository as it was) while git_read is never asked; read-only
 * modes refuse git_write.
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { safetyHarness, toolResultsSent, writeProjectFile } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

const git = (...args: string[]) => execFileSync("git", args, { cwd: h.root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const prompts = () => h.client.requests.filter((r) => r.method === "window/showMessageRequest").map((r) => r.params.message as string);

async function repository(mode: string): Promise<void> {
  h = await safetyHarness(mode);
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Ada Example");
  git("config", "user.email", "ada@example.com");
  git("config", "commit.gpgsign", "false");
  writeProjectFile(h, "a.txt", "one\n");
  git("add", "a.txt");
}

const commitTurn = { toolCalls: [{ name: "git_read", input: { action: "status" } }, { name: "git_write", input: { action: "commit", message: "add a" } }] };

describe("git tools in ask mode", () => {
  it("ask for git_write with the exact command; Yes commits with the user's identity", async () => {
    await repository("ask");
    h.client.script.showMessageRequest = () => "Yes";
    h.fake.enqueue(commitTurn, { text: "done" });
    await h.prompt(await h.newSession(), "commit it");
    expect(prompts()).toEqual([expect.stringContaining('git_write: git commit -m "add a"')]);
    expect(git("log", "-1", "--format=%an %s").trim()).toBe("Ada Example add a");
    const [status, commit] = toolResultsSent(h);
    expect(status!.text).toContain("Staged (1):\n  A. a.txt");
    expect(commit!.text).toMatch(/^Committed [0-9a-f]+ by Ada Example <ada@example.com>: add a/);
  });

  it("No leaves the repository as it was", async () => {
    await repository("ask");
    h.client.script.showMessageRequest = () => "No";
    h.fake.enqueue(commitTurn, { text: "ok" });
    await h.prompt(await h.newSession(), "commit it");
    expect(() => git("rev-parse", "HEAD")).toThrow();
    expect(toolResultsSent(h)[1]!.isError).toBe(true);
  });
});

describe("git tools in read-only mode", () => {
  it("git_read runs, git_write is refused", async () => {
    await repository("read_only");
    h.fake.enqueue(commitTurn, { text: "ok" });
    await h.prompt(await h.newSession(), "commit it");
    const [status, commit] = toolResultsSent(h);
    expect(status!.isError).toBe(false);
    expect(commit!.text).toContain("git_write is not allowed: the session is read-only");
    expect(() => git("rev-parse", "HEAD")).toThrow();
  });
});
