/**
 * agent-lsp run at a terminal (a pseudo-terminal, through the built binary): the status line says
 * what is happening and is gone before anything else is written, each model call's text is its
 * own paragraph and never runs into a tool line or the tokens line, and Ctrl-C at an approval
 * prompt cancels the turn (exit 130) rather than answering No.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useCliProject } from "../helpers/cli-project.js";
import { runOnPty, screen } from "../helpers/pty.js";
import { BINARY } from "../helpers/spawn-server.js";
import { waitFor } from "../helpers/wait.js";

const project = useCliProject();

function runAtTerminal(args: string[]) {
  return runOnPty(process.execPath, [BINARY, "run", ...args], { cwd: project.root, env: project.env() });
}

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe("agent-lsp run at a terminal", () => {
  it("shows a status line (the model awaited, a tool with its time) that never stays on screen, and paragraphs apart", async () => {
    writeFileSync(path.join(project.root, "slow.sh"), "sleep 2\necho slept\n");
    project.fake.enqueue(
      { text: "First I run the script.", toolCalls: [{ name: "execute_command", input: { command: "sh slow.sh" } }], chunkDelayMs: 100 },
      { text: "It slept. Done.", chunkDelayMs: 100 },
    );
    const term = runAtTerminal(["--mode", "full_access", "run slow.sh"]);
    expect(await term.exited).toBe(0);
    const raw = term.output();
    // What was drawn while it ran: the wait for the model, then the command with its seconds.
    expect(raw).toMatch(new RegExp(`${SPINNER.source} waiting for the model`));
    expect(raw).toMatch(new RegExp(`${SPINNER.source} [^\\r\\n]*sh slow\\.sh[^\\r\\n]*\\b[1-9]\\d* s\\b`));
    // What the screen shows at the end: no status line left, the two calls' words apart.
    const shown = screen(raw).filter((l) => !l.startsWith("agent-lsp:"));
    expect(shown.some((l) => SPINNER.test(l) || l.includes("waiting for the model"))).toBe(false);
    const first = shown.indexOf("First I run the script.");
    expect(first).toBeGreaterThanOrEqual(0);
    expect(shown[first + 1]).toMatch(/^→ .*sh slow\.sh/);
    expect(shown[first + 2]).toMatch(/^✓ /);
    expect(shown[first + 3]).toBe("");
    expect(shown[first + 4]).toBe("It slept. Done.");
    expect(shown[first + 5]).toMatch(/^tokens: \d+ in, \d+ out/);
    expect(shown[first + 6]).toMatch(/^session: /);
  }, 90_000);

  it("Ctrl-C at an approval prompt cancels the turn: exit 130, nothing written, no further model call", async () => {
    // Only the call is queued: a turn that went on would ask the model again (and be told no turn is queued).
    project.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "never.txt", content: "no\n" } }] });
    const before = project.fake.requests.length;
    const term = runAtTerminal(["--mode", "ask", "make never.txt"]);
    await waitFor(() => term.output().includes("[3] No"), 60_000);
    term.type("\u0003");
    expect(await term.exited).toBe(130);
    expect(existsSync(path.join(project.root, "never.txt"))).toBe(false);
    expect(project.fake.requests.length).toBe(before + 1);
    const shown = screen(term.output());
    expect(shown.some((l) => l.includes("stopped: cancelled"))).toBe(true);
  }, 90_000);

  it("an answer at the prompt is still an answer: 1 allows the write", async () => {
    project.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "allowed.txt", content: "yes\n" } }] }, { text: "Written." });
    const term = runAtTerminal(["--mode", "ask", "make allowed.txt"]);
    await waitFor(() => term.output().includes("[3] No"), 60_000);
    term.type("1\r");
    expect(await term.exited).toBe(0);
    expect(existsSync(path.join(project.root, "allowed.txt"))).toBe(true);
    expect(screen(term.output())).toContain("Written.");
  }, 90_000);
});
