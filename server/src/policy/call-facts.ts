/**
 * What the gate can tell about a call from its input alone, before the tool runs: the command it
 * would run, the paths it names, and a one-line summary for the prompt. This is the safety net for
 * tools that do not ask the gate themselves (see docs/safety.md, "For tool authors").
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { expandPathInput, isInside } from "../workspace/paths.js";
import type { ToolDescriptor } from "../vocabulary/policy.js";
import { URL_PATTERN } from "../editor/prompt-text.js";

/** Input fields that name a file or folder. */
const PATH_FIELDS = ["path", "file_path", "cwd", "directory", "dir"] as const;

/**
 * The command an exec tool's input names, with its folder (absolute, `~` expanded in `home` as
 * the tool will).
 */
export function commandOf(capability: ToolDescriptor, input: unknown, root: string, home?: string): { command: string; cwd: string } | undefined {
  if (capability.policyClass !== "exec") return undefined;
  const command = field(input, "command");
  if (typeof command !== "string") return undefined;
  const cwd = field(input, "cwd");
  return { command, cwd: typeof cwd === "string" ? path.resolve(root, expandPathInput(cwd, home)) : root };
}

/**
 * Every path the input names (absolute), from the usual field names: expanded as the Workspace
 * expands them (file URIs, `~` in `home`), so `~/x` counts as outside the project here too.
 */
export function inputPaths(input: unknown, root: string, home?: string): string[] {
  const out: string[] = [];
  for (const name of [...PATH_FIELDS, "paths"]) {
    const v = field(input, name);
    const values = Array.isArray(v) ? v : [v];
    for (const p of values) if (typeof p === "string" && p) out.push(path.resolve(root, expandPathInput(p, home)));
  }
  return [...new Set(out)];
}

/** The paths of `paths` outside `root`. */
export function outside(paths: readonly string[], root: string): string[] {
  return paths.filter((p) => !isInside(root, p));
}

/** The folder a path stands for: itself when it is a folder, else the folder containing it. */
export async function folderOf(abs: string): Promise<string> {
  const st = await stat(abs).catch(() => undefined);
  return st?.isDirectory() ? abs : path.dirname(abs);
}

/**
 * Text on one line (newlines shown as ⏎), cut to about `max` characters, but never a web address:
 * every address in it is kept whole, only the text around them is cut (a URL cut at the 171st
 * character hid the data it carried). The prompt wraps long addresses (editor/prompt-text.ts).
 */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\r?\n/g, " ⏎ ").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  let budget = max - 1;
  let out = "";
  let at = 0;
  const keep = (part: string) => {
    if (budget > 0) out += part.length > budget ? `${part.slice(0, budget)}…` : part;
    else if (part && !out.endsWith("…")) out += "…";
    budget -= part.length;
  };
  for (const m of flat.matchAll(URL_PATTERN)) {
    keep(flat.slice(at, m.index));
    out += m[0];
    at = m.index + m[0].length;
  }
  keep(flat.slice(at));
  return out;
}

/** A path as the user knows it: relative inside the project, absolute outside. */
export function shownPath(abs: string, root: string): string {
  if (!isInside(root, abs)) return abs;
  return path.relative(root, abs).split(path.sep).join("/") || ".";
}

/** "execute_command: npm test (in packages/app)". */
export function commandSummary(tool: string, command: string, cwd: string, root: string): string {
  const where = cwd === root ? "" : ` (in ${shownPath(cwd, root)})`;
  return `${tool}: ${oneLine(command, 160)}${where}`;
}

/** "web_fetch: Fetch https://example.com" or, without a useful title, the input in brief. */
export function callSummary(tool: string, title: string, input: unknown): string {
  if (title && title !== tool) return `${tool}: ${oneLine(title, 160)}`;
  const json = JSON.stringify(input ?? {});
  return json === "{}" ? tool : `${tool} ${oneLine(json, 160)}`;
}

function field(input: unknown, name: string): unknown {
  return input && typeof input === "object" ? (input as Record<string, unknown>)[name] : undefined;
}

