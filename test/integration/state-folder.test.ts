/**
 * The state folder `.agent-lsp/` against real git: after a session has written its transcript,
 * a checkpoint, the write journal, a background process log and the server log, `git status`
 * shows only the settings a team shares, and a `.gitignore` the user already had is kept.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileLogger } from "../../server/src/util/log.js";
import { startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

function git(root: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: root } });
}

/** A git repository with one committed file. */
function gitProject(): string {
  const root = tempProject("agent-lsp-git-");
  git(root, "init", "-q");
  writeFileSync(path.join(root, "app.txt"), "one\n");
  git(root, "add", "-A");
  git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start");
  return root;
}

/** Runs a session that edits a file and starts a background command, then waits for its log. */
async function runSession(root: string): Promise<string> {
  h = await startAgentHarness({ root, options: { tools: { provider_native: false } } });
  const sessionId = await h.newSession();
  h.fake.enqueue(
    { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "one", replacement_content: "two" } }] },
    { toolCalls: [{ name: "execute_command", input: { command: "echo logged", mode: "background" } }] },
    { text: "Done." },
  );
  await h.prompt(sessionId, "go");
  const logger = new FileLogger("info", false);
  logger.attachFile(root);
  logger.info("a line for the server log");
  return sessionId;
}

describe("the state folder and git", () => {
  it("keeps transcripts, logs, checkpoints and process logs out of git, and lets the shared settings through", async () => {
    const root = gitProject();
    const sessionId = await runSession(root);
    const state = path.join(root, ".agent-lsp");
    mkdirSync(path.join(state, "rules"), { recursive: true });
    mkdirSync(path.join(state, "skills", "deploy"), { recursive: true });
    mkdirSync(path.join(state, "workflows"), { recursive: true });
    writeFileSync(path.join(state, "config.toml"), 'safety = "ask"\n');
    writeFileSync(path.join(state, "approvals.toml"), "");
    writeFileSync(path.join(state, "rules", "style.md"), "Use tabs.\n");
    writeFileSync(path.join(state, "skills", "deploy", "SKILL.md"), "Deploy.\n");
    writeFileSync(path.join(state, "workflows", "release.md"), "Release.\n");

    const status = git(root, "status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean).sort();
    expect(status).toEqual([
      " M app.txt",
      "?? .agent-lsp/approvals.toml",
      "?? .agent-lsp/config.toml",
      "?? .agent-lsp/rules/style.md",
      "?? .agent-lsp/skills/deploy/SKILL.md",
      "?? .agent-lsp/workflows/release.md",
    ]);
    const written = [
      `.agent-lsp/conversations/${sessionId}.jsonl`,
      ".agent-lsp/logs/agent-lsp.log",
      ".agent-lsp/processes",
      ".agent-lsp/checkpoints",
      ".agent-lsp/journal",
      ".agent-lsp/.gitignore",
    ];
    // check-ignore exits 1 for a path that is not ignored, which makes execFileSync throw.
    expect(git(root, "check-ignore", ...written).trim().split("\n")).toEqual(written);
    expect(git(root, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory")).toContain(".agent-lsp/conversations/");
  });

  it("never overwrites a .gitignore the user already keeps in the state folder", async () => {
    const root = gitProject();
    const own = "# mine\nconversations/\n";
    mkdirSync(path.join(root, ".agent-lsp"));
    writeFileSync(path.join(root, ".agent-lsp", ".gitignore"), own);
    await runSession(root);
    expect(readFileSync(path.join(root, ".agent-lsp", ".gitignore"), "utf8")).toBe(own);
  });
});
