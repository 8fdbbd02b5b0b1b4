import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { commandTools } from "../../../server/src/tools/commands/command-tools.js";
import type { Capability } from "../../../server/src/tools/types.js";
import { fakeToolSetup, pidsIn, survivors, textOf, type FakeToolSetup } from "./fake-context.js";
import { PROMPTLY_MS } from "../../helpers/wait.js";

const tool = (name: string): Capability => commandTools.find((t) => t.name === name)!;
const exec = tool("execute_command");
const bg = tool("background_process");
const kill = tool("kill_command");

let setup: FakeToolSetup;
beforeEach(() => {
  setup = fakeToolSetup();
});
afterEach(() => setup.dispose());

describe("command tool definitions", () => {
  it("declares the policy classes the gate relies on", () => {
    expect(commandTools.map((t) => [t.name, t.policyClass])).toEqual([
      ["execute_command", "exec"],
      ["background_process", "read_only"],
      ["kill_command", "read_only"],
    ]);
    expect(exec.inputSchema).toMatchObject({ required: ["command"] });
  });

  it("rejects a timeout above the maximum as an input error the model can fix", async () => {
    const result = await exec.execute({ command: "true", timeout_secs: 601 }, setup.context());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("timeout_secs");
    expect(setup.authorized).toEqual([]);
  });

  it("fails clearly without a process manager", async () => {
    const ctx = { ...setup.context(), services: {} };
    const result = await exec.execute({ command: "true" }, ctx);
    expect(textOf(result)).toMatch(/no process manager/);
  });
});

describe.skipIf(process.platform === "win32")("execute_command", () => {
  it("asks the gate with the command and cwd, then reports the exit code and output", async () => {
    const ok = await exec.execute({ command: "echo hi" }, setup.context());
    expect(setup.authorized).toEqual([{ kind: "command", command: "echo hi", cwd: setup.root, sandbox: { state: "off" } }]);
    expect(ok.isError).toBe(false);
    expect(textOf(ok)).toMatch(/^Exit code: 0 \(\d+(\.\d)? s, not sandboxed: \[exec\] sandbox is "off"\)\n\nhi\n$/);
    const bad = await exec.execute({ command: "echo broken >&2; exit 2" }, setup.context());
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Exit code: 2 .*\n\nbroken\n$/);
  });

  it("does not run a command the gate refuses, and says why", async () => {
    setup.decide = () => ({ allowed: false, reason: "the user said no" });
    const result = await exec.execute({ command: "touch ran.txt" }, setup.context());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Command not run: the user said no");
    expect(existsSync(path.join(setup.root, "ran.txt"))).toBe(false);
  });

  it("runs in a cwd inside the project and refuses one outside it", async () => {
    mkdirSync(path.join(setup.root, "sub"));
    const inside = await exec.execute({ command: "pwd", cwd: "sub" }, setup.context());
    expect(textOf(inside)).toContain(`${path.join(setup.root, "sub")}\n`);
    const outside = await exec.execute({ command: "pwd", cwd: ".." }, setup.context());
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/outside the project/);
    expect(setup.authorized.map((a) => a.kind === "command" && a.cwd)).toEqual([path.join(setup.root, "sub")]);
  });

  it("says when it timed out and that the tree was stopped", async () => {
    const result = await exec.execute({ command: "echo $$; sleep 100 & echo $!; wait", timeout_secs: 0.5 }, setup.context());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Killed: timed out after 0\.5 s\. Stopped 2 processes with SIGTERM\./);
    expect(await survivors(pidsIn(textOf(result)))).toEqual([]);
  });

  it("is cancelled by the turn's signal, promptly", async () => {
    const abort = new AbortController();
    const pending = exec.execute({ command: "sleep 100" }, setup.context("session-a", abort.signal));
    await new Promise((r) => setTimeout(r, 300));
    const abortedAt = Date.now();
    abort.abort();
    const result = await pending;
    expect(Date.now() - abortedAt).toBeLessThan(PROMPTLY_MS);
    expect(textOf(result)).toMatch(/^Killed: cancelled by the user\./);
  });

  it("reports progress after a second: $/progress with the tail, and tool_call_update text", async () => {
    const result = await exec.execute({ command: "echo step-one; sleep 1.6; echo step-two" }, setup.context());
    expect(textOf(result)).toContain("step-one\nstep-two\n");
    expect(setup.editor.progressLog).toHaveLength(1);
    const [progress] = setup.editor.progressLog;
    expect(progress!.title).toBe("$ echo step-one; sleep 1.6; echo step-two");
    expect(progress!.reports[0]).toMatch(/^1 s · step-one$/);
    expect(progress!.done).toBe("exit 0");
    expect(setup.progress[0]).toBe(`[running 1 s, not sandboxed: [exec] sandbox is "off"]\nstep-one`);
  });

  it("reports no progress for a quick command", async () => {
    await exec.execute({ command: "true" }, setup.context());
    await new Promise((r) => setTimeout(r, 1200));
    expect(setup.editor.progressLog).toEqual([]);
    expect(setup.progress).toEqual([]);
  });
});

describe.skipIf(process.platform === "win32")("background mode and background_process", () => {
  const idIn = (text: string) => /bg-\d+/.exec(text)![0];

  it("starts, reads new output, waits for a pattern, lists and stops", async () => {
    const started = await exec.execute(
      { command: "echo starting; sleep 0.3; echo 'listening on 8080'; sleep 100", mode: "background" },
      setup.context(),
    );
    expect(started.isError).toBe(false);
    const id = idIn(textOf(started));
    expect(textOf(started)).toContain(`log: .agent-lsp/processes/${id}.log`);
    expect(setup.authorized).toHaveLength(1);

    const waited = await bg.execute({ action: "wait", id, pattern: "listening on \\d+", timeout_secs: 10 }, setup.context());
    expect(textOf(waited)).toBe(`${id}: running\nWait ended: the pattern /listening on \\d+/ appeared in new output.\nstarting\nlistening on 8080\n`);

    const read = await bg.execute({ action: "read", id }, setup.context());
    expect(textOf(read)).toBe(`${id}: running\n(no new output)`);

    const listed = await bg.execute({ action: "list" }, setup.context());
    expect(textOf(listed)).toMatch(new RegExp(`^${id}  running  started \\d+ s ago  log \\.agent-lsp/processes/${id}\\.log\\n    \\$ echo starting`));

    const timedOut = await bg.execute({ action: "wait", id, pattern: "never", timeout_secs: 0.3 }, setup.context());
    expect(textOf(timedOut)).toContain("Wait ended: 0.3 s passed without /never/ in new output; it still runs.");

    const stopped = await bg.execute({ action: "stop", id }, setup.context());
    expect(textOf(stopped)).toMatch(new RegExp(`^${id}: stopped \\(stopped by background_process\\), ended by SIGTERM\\nStopped [1-9]\\d* process(es)? with SIGTERM\\.`));
  });

  it("another session gets the same answer as for an unknown id", async () => {
    const id = idIn(textOf(await exec.execute({ command: "sleep 100", mode: "background" }, setup.context())));
    const other = setup.context("session-b");
    for (const action of ["read", "wait", "stop"] as const) {
      const result = await bg.execute({ action, id, timeout_secs: 0.1 }, other);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`No background process "${id}" in this session. Call background_process with action "list" to see this session's processes.`);
    }
    expect(textOf(await bg.execute({ action: "list" }, other))).toBe("No background processes in this session.");
    expect(textOf(await bg.execute({ action: "read", id }, setup.context()))).toBe(`${id}: running\n(no new output)`);
  });

  it("explains a missing id and a bad pattern", async () => {
    expect(textOf(await bg.execute({ action: "read" }, setup.context()))).toMatch(/needs an id/);
    const id = idIn(textOf(await exec.execute({ command: "sleep 100", mode: "background" }, setup.context())));
    const bad = await bg.execute({ action: "wait", id, pattern: "(" }, setup.context());
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/not a valid regular expression/);
  });
});

describe.skipIf(process.platform === "win32")("kill_command", () => {
  it("stops the session's running foreground command, and only that session's", async () => {
    const ctx = setup.context();
    const pending = exec.execute({ command: "sleep 100" }, ctx);
    await new Promise((r) => setTimeout(r, 200));
    const other = await kill.execute({}, setup.context("session-b"));
    expect(textOf(other)).toBe("No foreground command is running in this session.");
    const killed = await kill.execute({ id: ctx.toolCallId }, setup.context());
    expect(textOf(killed)).toMatch(/^Killed fg-1 \(\$ sleep 100\): Stopped [12] process(es)? with SIGTERM\.$/);
    expect(textOf(await pending)).toMatch(/^Killed: stopped by kill_command\./);
    const nothing = await kill.execute({ id: "fg-1" }, setup.context());
    expect(nothing.isError).toBe(true);
  });
});
