/**
 * Desktop benchmark: a computer screenshot action on a 1920x1080 Xvfb display, grabbed with
 * nut-js, fitted and PNG-encoded with sharp (target under 300 ms). Skipped, saying why, when
 * Xvfb is not installed.
 */
import { nutDesktop } from "../server/src/computer/desktop.js";
import { runComputerAction } from "../server/src/computer/run-action.js";
import { ComputerStates } from "../server/src/computer/state.js";
import { missingXTools, startXvfb } from "../test/helpers/xvfb.js";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";

/**
 * The screenshot benchmark, run in a process of its own: nut-js keeps its X connection for the
 * life of the process, and Xlib ends a process whose display goes away (an XIO error, exit 1),
 * so the display is stopped in that process alone. Its printed lines are the result.
 */
export async function benchComputer(): Promise<string[]> {
  const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child"], { encoding: "utf8" });
  const lines = child.stdout.split("\n").filter((l) => l.startsWith("computer_"));
  if (!lines.length) throw new Error(`the screenshot benchmark printed nothing (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  return lines;
}

/** The screenshot benchmark's lines, measured in this process. */
async function measureScreenshots(): Promise<string[]> {
  const missing = missingXTools();
  if (missing) return [`computer_screenshot skipped: ${missing}`];
  const x = await startXvfb(1920, 1080);
  const saved = process.env.DISPLAY;
  process.env.DISPLAY = x.name;
  try {
    x.run("xmessage", ["-center", "A window to look at, with some text in it."]);
    const desktop = await nutDesktop();
    const state = new ComputerStates().of("bench", 0);
    const times: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t0 = performance.now();
      const r = await runComputerAction({ action: "screenshot" }, { desktop, state, batchId: `b${i}`, settleMs: 0, signal: new AbortController().signal });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      if (i > 0) times.push(performance.now() - t0);
    }
    return [`computer_screenshot_1920x1080 ${median(times).toFixed(1)} ms (grab, fit to 1429x804, PNG; target < 300 ms)`];
  } finally {
    process.env.DISPLAY = saved;
    await x.close();
  }
}

if (process.argv.includes("--child")) {
  for (const line of await measureScreenshots()) console.log(line);
  process.exit(0);
}
