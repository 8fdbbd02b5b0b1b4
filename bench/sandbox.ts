/**
 * What the sandbox adds to a command: execute_command "true" end to end through the tool layer
 * with `[exec] sandbox = "auto"` (bwrap: its namespaces, mounts and covers), beside the same call
 * with the sandbox off, interleaved in the same run. The project is a git repository and the home
 * holds every credential place agent-lsp hides, as a user's does: each is one more mount. Target:
 * at most 15 ms more. Skipped (a line saying why) where the sandbox cannot run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sandboxAvailability } from "../server/src/exec/sandbox/probe.js";
import { commandTools } from "../server/src/tools/commands/command-tools.js";
import { sandboxFor } from "../test/helpers/sandbox.js";
import { fakeToolSetup, type FakeToolSetup } from "../test/unit/exec/fake-context.js";
import { median, time } from "./stats.js";

const RUNS = 30;
const WARMUP = 5;

/** Lines `name value unit`. */
export async function benchSandbox(): Promise<string[]> {
  const available = await sandboxAvailability();
  if (!available.works) return [`sandbox.skipped 0 (${available.why})`];
  const home = fullHome();
  const sandboxed = fakeToolSetup({ sandbox: sandboxFor(home) });
  execFileSync("git", ["init", "-q", sandboxed.root]);
  const plain = fakeToolSetup({ root: sandboxed.root });
  const tool = commandTools.find((t) => t.name === "execute_command")!;
  const run = (setup: FakeToolSetup, expected: RegExp) => async () => {
    const result = await tool.execute({ command: "true" }, setup.context());
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    if (result.isError || !expected.test(text)) throw new Error(`execute_command "true" did not run as expected: ${text}`);
  };
  const inside = run(sandboxed, /sandboxed\)/);
  const outside = run(plain, /not sandboxed/);
  try {
    for (let i = 0; i < WARMUP; i++) {
      await inside();
      await outside();
    }
    // Interleaved, so drift in machine load hits both alike.
    const insideMs: number[] = [];
    const outsideMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      insideMs.push(await time(inside));
      outsideMs.push(await time(outside));
    }
    const s = median(insideMs);
    const o = median(outsideMs);
    // On a busy machine the median also holds time spent waiting for a CPU, which bwrap (three
    // processes, namespaces, mounts) waits for more often; the fastest run is the cost itself.
    const sMin = Math.min(...insideMs);
    const oMin = Math.min(...outsideMs);
    return [
      `sandbox.execute_command_true_sandboxed ${s.toFixed(2)} ms`,
      `sandbox.execute_command_true_unsandboxed ${o.toFixed(2)} ms`,
      `sandbox.added ${(s - o).toFixed(2)} ms`,
      `sandbox.ratio ${(s / o).toFixed(2)} x`,
      `sandbox.added_fastest ${(sMin - oMin).toFixed(2)} ms (fastest runs: ${sMin.toFixed(2)} against ${oMin.toFixed(2)})`,
      // bwrap's namespaces and mounts cost more on a busy machine: the load says how busy it was.
      `sandbox.load_average ${os.loadavg()[0]!.toFixed(1)} (1 min, ${os.cpus().length} cores)`,
    ];
  } finally {
    sandboxed.dispose();
    plain.dispose();
    rmSync(home, { recursive: true, force: true });
  }
}

/** A home under /var/tmp holding every credential place the sandbox covers. */
function fullHome(): string {
  const home = mkdtempSync(path.join("/var/tmp", "agent-lsp-bench-home-"));
  for (const dir of [".ssh", ".gnupg", ".aws", ".azure", ".kube", ".config/gcloud", ".config/gh", ".config/agent-lsp", ".local/state/agent-lsp", ".password-store", ".local/share/keyrings", ".docker", ".cargo"]) {
    mkdirSync(path.join(home, dir), { recursive: true });
  }
  for (const file of [".docker/config.json", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".cargo/credentials.toml"]) writeFileSync(path.join(home, file), "x\n");
  return home;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchSandbox()) process.stdout.write(`${line}\n`);
}
