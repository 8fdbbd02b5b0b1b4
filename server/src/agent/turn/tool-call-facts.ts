/**
 * What a tool call is about, in the structured form front ends render their own way: its kind
 * (read, edit, execute...), the files and lines it names, the command and folder it runs, and
 * after it ran, its change file by file. Read from the tool's declared kind and its input fields.
 */
import path from "node:path";
import { patchPaths } from "../../edits/patch-apply.js";
import { parsePatch } from "../../edits/patch-parse.js";
import type { FileDiff, ToolCallFacts, ToolCallLocation } from "../../protocol/updates.js";
import type { Capability } from "../../tools/types.js";
import type { ToolCallBlock } from "../../vocabulary/messages.js";
import { boundedInput } from "../../util/bounded-input.js";


/** Input fields that name a file or folder. */
const PATH_FIELDS = ["path", "file_path", "directory", "dir"] as const;

/** The kind, locations and command of a call, as far as its input says. */
export function callFacts(capability: Capability | undefined, input: unknown, root: string): ToolCallFacts {
  const fields = isRecord(input) ? input : {};
  const facts: ToolCallFacts = { toolKind: capability?.callKind ?? "other" };
  // A tool whose paths name places of its own (the memory stores) has no project locations.
  const locations = capability?.metadata?.storePaths === true ? [] : locationsOf(fields, root);
  if (locations.length) facts.locations = locations;
  if (capability?.policyClass === "exec" && typeof fields.command === "string") {
    facts.command = { command: fields.command, cwd: path.resolve(root, typeof fields.cwd === "string" ? fields.cwd : ".") };
  }
  return facts;
}

/**
 * The call as the model wrote it, when it called a provider-native tool (its `native` has the
 * provider's `kind`). A deferred MCP tool unwrapped from `tool_call` keeps its wrapper in `native`
 * too, but without a kind: that call shows as the real tool, not as `tool_call`.
 */
export function modelFacts(call: ToolCallBlock): Pick<ToolCallFacts, "modelName" | "modelInput"> {
  if (call.native?.kind === undefined) return {};
  return { modelName: call.native.name, modelInput: boundedInput(call.native.input) };
}

/** Splits a unified diff of several files into one diff per file (a note before a header goes with it). */
export function fileDiffs(diff: string): FileDiff[] {
  const out: FileDiff[] = [];
  const lines = diff.split(/(?<=\n)/);
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("--- ") || !lines[i + 1]?.startsWith("+++ ")) continue;
    // This file's part begins after the previous file's last hunk line: notes stay with their file.
    let head = i;
    while (head > start && !isHunkLine(lines[head - 1]!)) head--;
    if (out.length) out[out.length - 1]!.diff = lines.slice(start, head).join("");
    out.push({ path: headerPath(lines[i]!, lines[i + 1]!), diff: "" });
    start = head;
  }
  if (out.length) out[out.length - 1]!.diff = lines.slice(start).join("");
  return out;
}

function locationsOf(fields: Record<string, unknown>, root: string): ToolCallLocation[] {
  const names: string[] = [];
  for (const f of PATH_FIELDS) if (typeof fields[f] === "string") names.push(fields[f] as string);
  if (Array.isArray(fields.paths)) names.push(...fields.paths.filter((p): p is string => typeof p === "string"));
  if (typeof fields.patch === "string") names.push(...pathsOfPatch(fields.patch));
  const lines = lineRange(fields);
  return names.map((name) => ({ path: shown(name, root), ...lines }));
}

/** The files a patch names (none when it does not parse: the tool will say why). */
function pathsOfPatch(patch: string): string[] {
  const parsed = parsePatch(patch);
  return parsed.ok ? patchPaths(parsed.ops) : [];
}

/** The line range the input names: start_line(+line_count), view_range, insert_line. */
function lineRange(fields: Record<string, unknown>): Pick<ToolCallLocation, "line" | "endLine"> {
  const int = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined);
  const range = Array.isArray(fields.view_range) ? fields.view_range : [];
  const line = int(fields.start_line) ?? int(range[0]) ?? int(fields.insert_line);
  if (line === undefined) return {};
  const count = int(fields.line_count);
  const endLine = int(range[1]) ?? (count !== undefined ? line + count - 1 : undefined);
  return endLine !== undefined ? { line, endLine } : { line };
}

/** A path as the user knows it: relative inside the project, else as given (absolute, `~/`...). */
function shown(name: string, root: string): string {
  if (name.startsWith("~") || name.startsWith("file:")) return name;
  const abs = path.resolve(root, name);
  const rel = path.relative(root, abs);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : abs;
}

function headerPath(minus: string, plus: string): string {
  const name = (line: string) => line.slice(4).replace(/\t.*$/, "").trim();
  const target = name(plus) === "/dev/null" ? name(minus) : name(plus);
  return target.replace(/^[ab]\//, "");
}

function isHunkLine(line: string): boolean {
  return /^[ +\-@\\]/.test(line);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
