/**
 * agent-lsp run without a terminal, through the built binary: the output formats and their
 * versioned lines, the exit statuses (3 when an action needed an approval no one could give),
 * resuming a session (--continue, --resume ID), and slash commands and MCP prompts as the prompt.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { useCliProject } from "../helpers/cli-project.js";
import { EVERYTHING } from "../helpers/mcp/servers.js";
import { BINARY } from "../helpers/spawn-server.js";

const exec = promisify(execFile);
const project = useCliProject();

/** Runs the binary in the project (or `cwd`) with the fake as Anthropic; never throws on exit status. */
async function run(args: string[], cwd = project.root) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BINARY, "run", ...args], { cwd, env: project.env() });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The texts of every message the model was sent in request `i` (negative: from the end). */
function sent(i: number): string {
  return JSON.stringify(project.fake.requests.at(i)!.body.messages);
}

describe("agent-lsp run output formats", () => {
  it("json writes one object at the end: the final answer, usage, cost, session id, stop reason", async () => {
    writeFileSync(path.join(project.root, "notes.txt"), "a note\n");
    project.fake.enqueue({ text: "Reading it first.", toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }], usage: { input: 100, output: 20 } }, { text: "The note says: a note.", usage: { input: 150, output: 10 } });
    const res = await run(["--output-format", "json", "what does notes.txt say?"]);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split("\n")).toHaveLength(1);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({ schemaVersion: 1, type: "result", stopReason: "end_turn", text: "The note says: a note.", exitCode: 0, usage: { inputTokens: 250, outputTokens: 30 } });
    expect(result.sessionId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(result).toHaveProperty("cost");
    // Nothing else is written while it runs: no tool lines, no tokens line, no status line.
    expect(res.stderr).not.toContain("→");
    expect(res.stderr).not.toContain("tokens:");
    expect(res.stderr).not.toContain("\u001b[");
  });

  it("stream-json (and its old name --json) writes a session line, versioned update lines and a result line", async () => {
    for (const flags of [["--output-format", "stream-json"], ["--json"]]) {
      project.fake.enqueue({ toolCalls: [{ name: "list_files", input: { path: "." } }] }, { text: "streamed answer" });
      const res = await run([...flags, "list the files"]);
      expect(res.code, flags.join(" ")).toBe(0);
      const lines = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.every((l) => l.schemaVersion === 1)).toBe(true);
      expect(lines[0]).toMatchObject({ type: "session", resumed: false, mode: expect.any(String), model: expect.any(String) });
      const updates = lines.filter((l) => l.type === "update");
      expect(updates.map((l) => l.update.kind)).toEqual(expect.arrayContaining(["tool_call", "tool_call_update", "text", "usage"]));
      expect(updates.every((l) => l.sessionId === lines[0].sessionId)).toBe(true);
      expect(lines.at(-1)).toMatchObject({ type: "result", sessionId: lines[0].sessionId, stopReason: "end_turn", text: "streamed answer", exitCode: 0 });
    }
  });

  it("refuses an unknown format and --json with another format (usage, 2)", async () => {
    const bad = await run(["--output-format", "yaml", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--output-format must be one of text, json, stream-json");
    expect((await run(["--json", "--output-format", "json", "hi"])).code).toBe(2);
  });

  it("text output ends with the session id to resume; piped, no status line is drawn", async () => {
    project.fake.enqueue({ text: "plain answer" });
    const res = await run(["hi"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("plain answer\n");
    expect(res.stderr).toMatch(/session: ([A-Za-z0-9_-]+) \(continue it: agent-lsp run --resume \1 "\.\.\."\)/);
    expect(res.stderr).not.toContain("waiting for the model");
    expect(res.stderr).not.toContain("\r");
  });
});

describe("agent-lsp run exit statuses", () => {
  it("exits 3 when a gated action needed an approval no terminal could give, and says so", async () => {
    const write = { toolCalls: [{ name: "write_file", input: { path: "needs-ok.txt", content: "hi\n" } }] };
    project.fake.enqueue(write, { text: "could not write it" });
    const text = await run(["--mode", "ask", "make a file"]);
    expect(text.code).toBe(3);
    expect(existsSync(path.join(project.root, "needs-ok.txt"))).toBe(false);
    expect(text.stderr).toContain("refused: 1 action(s) needed approval and there was no terminal to ask");
    project.fake.enqueue(write, { text: "could not write it" });
    const json = await run(["--mode", "ask", "--output-format", "json", "make a file"]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ stopReason: "end_turn", exitCode: 3, refusedApprovals: 1 });
    // A mode that allows it needs no approval: 0.
    project.fake.enqueue(write, { text: "wrote it" });
    expect((await run(["--mode", "full_access", "make a file"])).code).toBe(0);
    expect(existsSync(path.join(project.root, "needs-ok.txt"))).toBe(true);
  });

  it("run --help lists every exit status", async () => {
    const res = await exec(process.execPath, [BINARY, "run", "--help"]);
    for (const words of ["--output-format text|json|stream-json", "--continue", "--resume ID", "0 the turn ended normally", "1 it did not", "2 usage error", "3 a gated action was refused", "130 cancelled"]) {
      expect(res.stdout.replace(/\s+/g, " ")).toContain(words);
    }
  });
});

describe("agent-lsp run --continue and --resume", () => {
  it("--resume ID carries the saved conversation on; --continue takes the most recent one", async () => {
    const dir = tempProject();
    project.fake.enqueue({ text: "The first answer." });
    const first = JSON.parse((await run(["--output-format", "json", "remember the word PELICAN"], dir)).stdout);
    project.fake.enqueue({ text: "Another session." });
    const second = JSON.parse((await run(["--output-format", "json", "an unrelated question"], dir)).stdout);
    expect(second.sessionId).not.toBe(first.sessionId);

    project.fake.enqueue({ text: "You said PELICAN." });
    const resumed = await run(["--output-format", "stream-json", "--resume", first.sessionId, "what was the word?"], dir);
    expect(resumed.code).toBe(0);
    const lines = resumed.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", sessionId: first.sessionId, resumed: true });
    // The saved history is not streamed again, only the new turn.
    expect(lines.filter((l) => l.type === "update" && l.update.kind === "text").map((l) => l.update.text).join("")).toBe("You said PELICAN.");
    expect(sent(-1)).toContain("remember the word PELICAN");
    expect(sent(-1)).toContain("The first answer.");
    expect(sent(-1)).not.toContain("an unrelated question");

    project.fake.enqueue({ text: "Still here." });
    const continued = await run(["--continue", "and now?"], dir);
    expect(continued.code).toBe(0);
    expect(continued.stdout).toBe("Still here.\n");
    // The most recent session is the one just resumed.
    expect(sent(-1)).toContain("what was the word?");
    expect(continued.stderr).toContain(`session: ${first.sessionId}`);
  });

  it("--resume of an id that is not saved names it and lists the saved ones (exit 1); --continue with none says so", async () => {
    const dir = tempProject();
    const before = project.fake.requests.length;
    const none = await run(["--continue", "hi"], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("there is no saved session in");
    project.fake.enqueue({ text: "ok" });
    const saved = JSON.parse((await run(["--output-format", "json", "a first prompt"], dir)).stdout);
    const missing = await run(["--resume", "no-such-session-42", "hi"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot resume the session "no-such-session-42"');
    expect(missing.stderr).toContain(`${saved.sessionId}`);
    expect(missing.stderr).toContain("a first prompt");
    expect(project.fake.requests.length).toBe(before + 1);
    expect((await run(["--continue", "--resume", saved.sessionId, "hi"], dir)).code).toBe(2);
  });
});

describe("agent-lsp run with a slash command as the prompt", () => {
  it("runs a command that answers (/model) without calling the model", async () => {
    const before = project.fake.requests.length;
    const res = await run(["/model"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/model/i);
    expect(project.fake.requests.length).toBe(before);
    const json = JSON.parse((await run(["--output-format", "json", "/model"])).stdout);
    expect(json).toMatchObject({ type: "result", stopReason: "end_turn", exitCode: 0 });
    expect(json.text).toBe(res.stdout.trimEnd());
    const unknown = await run(["/no-such-command"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown command "no-such-command"');
    expect(project.fake.requests.length).toBe(before);
  });

  it("runs a project workflow as a turn with its steps as the message, and a path-like prompt goes to the model", async () => {
    const dir = tempProject();
    mkdirSync(path.join(dir, ".agent-lsp", "workflows"), { recursive: true });
    writeFileSync(path.join(dir, ".agent-lsp", "workflows", "release.md"), "# Release\n1. Bump the version in VERSION-STEP-MARKER.\n");
    project.fake.enqueue({ text: "Bumped." });
    const res = await run(["/release"], dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Bumped.\n");
    expect(sent(-1)).toContain("VERSION-STEP-MARKER");
    project.fake.enqueue({ text: "It is env." });
    expect((await run(["/usr/bin/env is what?"], dir)).stdout).toBe("It is env.\n");
    expect(sent(-1)).toContain("/usr/bin/env is what?");
  });

  it("runs an MCP server's prompt with its arguments (/mcp__server__prompt ARGS) as a turn", async () => {
    const dir = tempProject();
    const config = path.join(project.home, ".config", "agent-lsp");
    mkdirSync(config, { recursive: true });
    writeFileSync(path.join(config, "config.toml"), `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}]\n`);
    try {
      project.fake.enqueue({ text: "Sunny." });
      const res = await run(["/mcp__everything__args-prompt", "Lisbon"], dir);
      expect(res.stderr).not.toContain("Unknown command");
      expect(res.code).toBe(0);
      expect(res.stdout).toBe("Sunny.\n");
      expect(sent(-1)).toContain("What's weather in Lisbon?");
    } finally {
      writeFileSync(path.join(config, "config.toml"), "");
    }
  }, 90_000);
});
