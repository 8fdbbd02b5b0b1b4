/**
 * Finding the editors of the test matrix: an executable at a path, checked to be the version a
 * slot tests, and run with an environment stripped of provider keys and the user's own editor
 * settings. Shared by the Neovim and Emacs harnesses.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** An editor a suite runs on, or why it cannot. */
export interface ProbedEditor {
  name: string;
  bin: string;
  available: boolean;
  /** Why it is not available. */
  reason?: string;
  version?: string;
}

/** `bin` as the editor of slot `name` when its `--version` first line matches `version`. */
export function probeEditor(name: string, bin: string, version: RegExp, install: string, env: NodeJS.ProcessEnv): ProbedEditor {
  if (!existsSync(bin)) return { name, bin, available: false, reason: `${bin} is missing (install: ${install})` };
  const res = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 20_000, env });
  const first = (res.stdout ?? "").split("\n")[0] ?? "";
  if (res.status !== 0) return { name, bin, available: false, reason: `${bin} --version failed: ${res.stderr || res.error?.message}` };
  if (!version.test(first)) return { name, bin, available: false, reason: `${bin} is ${first}, not the version this slot tests` };
  return { name, bin, available: true, version: first };
}

/** This process's environment without the variables whose names match `drop`. */
export function envWithout(drop: RegExp): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!drop.test(k)) env[k] = v;
  return env;
}
