/**
 * A real X display for the computer tool's tests: Xvfb on a free display number, and X programs
 * on it (xev, which prints every click and key it receives). When Xvfb is missing the tests skip,
 * and under AGENT_LSP_REQUIRE_ALL=1 (CI) they fail instead.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { waitFor } from "./wait.js";

/** A running Xvfb. */
export interface XDisplay {
  /** `:N`. */
  name: string;
  width: number;
  height: number;
  /** Starts an X program on this display; it is stopped with the display. */
  run(command: string, args: string[]): ChildProcess & { output: () => string };
  /** Resolves once a window named `name` is on the screen (X clients map their windows a while after starting). */
  waitForWindow(name: string, timeoutMs?: number): Promise<void>;
  /** Moves the pointer as the user would (xdotool, a separate X client). */
  userMovesMouse(x: number, y: number): void;
  close(): Promise<void>;
}

/** What is missing for a real display, or undefined when Xvfb, xev and xdotool are all there. */
export function missingXTools(): string | undefined {
  const missing = ["Xvfb", "xev", "xdotool", "xmessage"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
  return missing.length ? `missing ${missing.join(", ")} (apt-get install xvfb x11-utils xdotool)` : undefined;
}

/** True when the test must run (CI), so a missing tool fails it instead of skipping. */
export const REQUIRE_ALL = process.env.AGENT_LSP_REQUIRE_ALL === "1";

/** Starts Xvfb at `width`x`height` on the first free display from :70. */
export async function startXvfb(width = 1920, height = 1080): Promise<XDisplay> {
  let n = 70 + (process.pid % 50);
  while (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) n++;
  const name = `:${n}`;
  const server = spawn("Xvfb", [name, "-screen", "0", `${width}x${height}x24`, "-nolisten", "tcp"], { stdio: "ignore" });
  await waitFor(() => existsSync(`/tmp/.X11-unix/X${n}`), 10_000);
  const children: ChildProcess[] = [];
  const env = { ...process.env, DISPLAY: name };
  return {
    name,
    width,
    height,
    run(command, args) {
      let out = "";
      const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      children.push(child);
      return Object.assign(child, { output: () => out });
    },
    async waitForWindow(title, timeoutMs = 10_000) {
      const visible = () => spawnSync("xdotool", ["search", "--onlyvisible", "--name", title], { env }).status === 0;
      const end = Date.now() + timeoutMs;
      while (!visible()) {
        if (Date.now() > end) throw new Error(`no window named ${JSON.stringify(title)} appeared on ${name}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    userMovesMouse(x, y) {
      const r = spawnSync("xdotool", ["mousemove", String(x), String(y)], { env });
      if (r.status !== 0) throw new Error(`xdotool failed: ${r.stderr}`);
    },
    async close() {
      for (const c of children) c.kill("SIGKILL");
      server.kill("SIGTERM");
      await new Promise((r) => (server.exitCode !== null ? r(undefined) : server.once("exit", r)));
    },
  };
}
