import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { describeStop } from "../../../server/src/exec/format.js";
import { carriesToken, MARKER_VAR, markEnv, MarkerOwner } from "../../../server/src/exec/marker.js";
import { allocatedBetween, readEnvironValue } from "../../../server/src/exec/proc-table.js";
import { runCommand } from "../../../server/src/exec/runner.js";
import type { StopReport } from "../../../server/src/exec/stop-tree.js";
import { pidFromFile, processGone, survivors, tempRoot } from "./fake-context.js";

const report = (over: Partial<StopReport>): StopReport => ({ counted: true, stopped: [], leftGroup: [], survivors: [], escalated: false, ...over });

describe("describeStop says what a stop ended, and never more", () => {
  it.each([
    [{ stopped: [1] }, "Stopped 1 process with SIGTERM"],
    [{ stopped: [1, 2, 3], leftGroup: [3] }, "Stopped 3 processes (including 1 that had left the command's process group) with SIGTERM"],
    [{ stopped: [1, 2], escalated: true }, "Stopped 2 processes with SIGTERM, then SIGKILL"],
    [{}, "Nothing of it was still running"],
    [
      { stopped: [1], escalated: true, survivors: [{ pid: 42, why: "not ours to signal (it runs as another user)" }] },
      "Stopped 1 process with SIGTERM, then SIGKILL; still running: pid 42 (not ours to signal (it runs as another user))",
    ],
    [{ survivors: [{ pid: 7, why: "alive after SIGKILL (state D)" }] }, "Stopped nothing; still running: pid 7 (alive after SIGKILL (state D))"],
    [
      { counted: false },
      "Signalled its process group with SIGTERM (this system has no /proc, so processes that left the group were not looked for)",
    ],
  ])("%o", (over, text) => {
    expect(describeStop(report(over), "linux")).toBe(text);
  });

  it("names taskkill on Windows, where there are no process groups", () => {
    expect(describeStop(report({ counted: false }), "win32")).toBe(
      "Ended its process tree with taskkill /T /F (processes that left the tree were not looked for)",
    );
  });
});

describe("the marker", () => {
  it("is set, or appended to one inherited from an outer agent", () => {
    expect(markEnv({ PATH: "/bin" }, "10.1:fg-1")).toEqual({ PATH: "/bin", [MARKER_VAR]: "10.1:fg-1" });
    expect(markEnv({ [MARKER_VAR]: "9.1:bg-1234" }, "10.1:fg-1")[MARKER_VAR]).toBe("9.1:bg-1234 10.1:fg-1");
  });

  it("matches a command's token exactly, and an owner's by prefix", () => {
    expect(carriesToken("9.1:bg-1 10.1:fg-1", "10.1:fg-1")).toBe(true);
    expect(carriesToken("10.1:fg-10", "10.1:fg-1")).toBe(false);
    const owner = new MarkerOwner(10);
    expect(owner.id).toMatch(/^10\.\d+$/);
    expect(owner.owns(`9.1:bg-1 ${owner.token("fg-3")}`)).toBe(true);
    expect(owner.owns(`${owner.id}0:fg-3`)).toBe(false);
    expect(new MarkerOwner(10).id).not.toBe(owner.id);
  });
});

describe("pid order", () => {
  it.each([
    [101, 100, 200, true],
    [100, 100, 200, false],
    [201, 100, 200, false],
    [50, 100, 200, false],
    // Wrapped around pid_max: after 32000 came 5.
    [32100, 32000, 5, true],
    [3, 32000, 5, true],
    [6, 32000, 5, false],
  ])("%i after %i up to %i: %s", (pid, after, last, expected) => {
    expect(allocatedBetween(pid, after, last)).toBe(expected);
  });
});

describe.skipIf(process.platform !== "linux")("containment on Linux", () => {
  const root = tempRoot();
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) if (!processGone(pid)) process.kill(pid, "SIGKILL");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reads a variable from another process's environment", async () => {
    const child = spawn("sleep", ["100"], { env: { A: "1", [MARKER_VAR]: "10.1:fg-1 11.1:fg-2", Z: "2" } });
    started.push(child.pid!);
    expect(readEnvironValue(child.pid!, MARKER_VAR)).toBe("10.1:fg-1 11.1:fg-2");
    expect(readEnvironValue(child.pid!, "MISSING")).toBeUndefined();
    // The first entry has no NUL before it.
    expect(readEnvironValue(child.pid!, "A")).toBe("1");
  });

  it("a command's processes carry its token after the inherited one", async () => {
    const result = await runCommand({ command: `echo "$${MARKER_VAR}"`, cwd: root, timeoutMs: 10_000, baseEnv: { ...process.env, [MARKER_VAR]: "9.1:fg-7" } });
    expect(result.output).toMatch(new RegExp(`^9\\.1:fg-7 ${process.pid}\\.\\d+:run-\\d+\\n$`));
  });

  it.skipIf(spawnSync("setsid", ["true"]).status !== 0)(
    "finds a child that left the group with an empty environment, through its parent",
    async () => {
      const pidFile = path.join(root, "envi.pid");
      const command = `setsid env -i sh -c 'echo $$ > ${pidFile}; exec sleep 1000' </dev/null >/dev/null 2>&1 & wait`;
      const result = runCommand({ command, cwd: root, timeoutMs: 1500 });
      const pid = await pidFromFile(pidFile);
      started.push(pid);
      expect(readEnvironValue(pid, MARKER_VAR), "it has no marker").toBeUndefined();
      const { killed } = await result;
      expect(await survivors([pid], 5000)).toEqual([]);
      expect(killed?.stop.leftGroup).toEqual([pid]);
    },
  );
});
