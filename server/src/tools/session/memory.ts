/**
 * memory: what the agent should remember across sessions, as plain files in two stores (see
 * memory-store.ts). The commands are those of Anthropic's memory tool, so on Anthropic the model
 * gets that tool's own definition and its calls run here unchanged. Reads run in every mode;
 * every write shows the gate its diff first (a `file_change`), as a file edit does.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { unifiedDiff } from "../../workspace/diff.js";
import { defineTool, ToolError } from "../define-tool.js";
import { ensureStore, existingNames, listStore, memoryDirs, storeFiles, MemoryPathError, resolveMemoryPath, type MemoryPath, type MemoryStore } from "./memory-store.js";
import type { ToolContext } from "../types.js";

const input = lazySchema(() => z.object({
  command: z.enum(["view", "create", "str_replace", "insert", "delete", "rename"]),
  path: z.string().optional().describe("project/... or user/... (a leading /memories/ is allowed); for view, `/memories` lists both stores."),
  view_range: z.array(z.number().int()).length(2).optional().describe("view: [first, last] line, 1-based; last -1 reads to the end."),
  file_text: z.string().optional().describe("create: the whole file."),
  old_str: z.string().optional().describe("str_replace: text that occurs exactly once."),
  new_str: z.string().optional().describe("str_replace: its replacement."),
  insert_line: z.number().int().nonnegative().optional().describe("insert: the line after which to insert (0: at the top)."),
  insert_text: z.string().optional().describe("insert: the text."),
  old_path: z.string().optional().describe("rename: from."),
  new_path: z.string().optional().describe("rename: to."),
}));
type Input = z.infer<typeof input>;

/** The memory tool. */
export const memoryTool = defineTool({
  name: "memory",
  description:
    "Your memory across sessions: plain text files in two stores, `project/` (this project, shared with whoever works on it) and `user/` (yours, every project). " +
    "Commands: view (a folder lists files, a file shows numbered lines), create (write a whole file), str_replace, insert, delete, rename. " +
    "Keep notes short and current: facts about the project, the user's preferences, lessons learned. Never store secrets.",
  input,
  help: {
    whenToUse: "To keep what a later session should know (a project convention, the user's preference, a lesson learned), and to look at what earlier sessions kept. The index of both stores is in the system prompt.",
    examples: [
      '{"command": "view", "path": "/memories"}',
      '{"command": "create", "path": "project/conventions.md", "file_text": "Tests use vitest; run npm test.\\n"}',
      '{"command": "str_replace", "path": "user/preferences.md", "old_str": "tabs", "new_str": "two spaces"}',
    ],
    failureModes: [
      "A path outside the two stores (`..`, an absolute path, a symlink out) is refused, naming the stores.",
      "A file or line that does not exist: the error names what does.",
      "In ask mode a write is shown to the user first; a refusal comes back as an error.",
    ],
  },
  policyClass: "read_write",
  callKind: "edit",
  category: "memory",
  // storePaths: `path` names a memory file, not a project file (no editor locations, and its
  // calls never run side by side with file changes planned from project paths).
  metadata: { authorizesChanges: true, storePaths: true },
  title: (i) => `Memory ${i.command} ${i.path ?? i.old_path ?? ""}`.trim(),
  async execute(i, ctx) {
    const dirs = memoryDirs(ctx.workspace.root);
    const resolve = (p: string | undefined, what = "path"): MemoryPath => {
      if (p === undefined) throw new ToolError(`${i.command}: \`${what}\` is required.`);
      const resolved = guard(() => resolveMemoryPath(p, dirs));
      if (!resolved) throw new ToolError(`${i.command}: name a file under project/ or user/, not the memory root.`);
      if (resolved.rel === "") throw new ToolError(`${i.command}: name a file inside ${resolved.store}/, not the store itself.`);
      return resolved;
    };
    if (i.command === "view") return view(i, dirs);
    if (i.command === "create") {
      const target = resolve(i.path);
      if (i.file_text === undefined) throw new ToolError("create: `file_text` is required.");
      const old = readIfFile(target);
      await write(target, old ?? "", i.file_text, ctx);
      return `${old === undefined ? "Created" : "Overwrote"} ${target.shown}.`;
    }
    if (i.command === "str_replace") return strReplace(i, resolve(i.path), dirs, ctx);
    if (i.command === "insert") return insert(i, resolve(i.path), dirs, ctx);
    if (i.command === "delete") return remove(resolve(i.path), dirs, ctx);
    return rename(resolve(i.old_path, "old_path"), resolve(i.new_path, "new_path"), dirs, ctx);
  },
});

function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof MemoryPathError) throw new ToolError(err.message);
    throw err;
  }
}

function view(i: Input, dirs: Record<MemoryStore, string>): string {
  const target = guard(() => resolveMemoryPath(i.path ?? "/memories", dirs));
  if (!target) return [`project/ (${dirs.project})`, ...storeFiles(dirs, "project").map((f) => `  project/${f}`), `user/ (${dirs.user})`, ...storeFiles(dirs, "user").map((f) => `  user/${f}`)].join("\n");
  if (!existsSync(target.abs)) {
    if (target.rel === "") return `${target.shown}/ is empty.`;
    throw new ToolError(`No memory file ${target.shown}. ${existingNames(dirs, target.store)}`);
  }
  if (statSync(target.abs).isDirectory()) {
    const files = listStore(target.dir, target.rel);
    return files.length ? files.map((f) => `${target.store}/${f}`).join("\n") : `${target.shown} is empty.`;
  }
  const lines = readFileSync(target.abs, "utf8").split("\n");
  const [first, last] = i.view_range ?? [1, -1];
  if (first! < 1 || first! > Math.max(lines.length, 1)) throw new ToolError(`view_range: ${target.shown} has ${lines.length} line(s).`);
  const end = last === -1 ? lines.length : Math.min(last!, lines.length);
  return lines
    .slice(first! - 1, end)
    .map((l, n) => `${String(first! + n).padStart(6)}\t${l}`)
    .join("\n");
}

function readIfFile(target: MemoryPath): string | undefined {
  if (!existsSync(target.abs)) return undefined;
  if (statSync(target.abs).isDirectory()) throw new ToolError(`${target.shown} is a folder.`);
  return readFileSync(target.abs, "utf8");
}

function readExisting(target: MemoryPath, dirs: Record<MemoryStore, string>): string {
  const text = readIfFile(target);
  if (text === undefined) throw new ToolError(`No memory file ${target.shown}. ${existingNames(dirs, target.store)}`);
  return text;
}

async function strReplace(i: Input, target: MemoryPath, dirs: Record<MemoryStore, string>, ctx: ToolContext): Promise<string> {
  if (!i.old_str) throw new ToolError("str_replace: `old_str` is required and must not be empty.");
  const old = readExisting(target, dirs);
  const count = old.split(i.old_str).length - 1;
  if (count !== 1) throw new ToolError(`str_replace: \`old_str\` occurs ${count} times in ${target.shown}; it must occur exactly once.`);
  await write(target, old, old.replace(i.old_str, () => i.new_str ?? ""), ctx);
  return `Edited ${target.shown}.`;
}

async function insert(i: Input, target: MemoryPath, dirs: Record<MemoryStore, string>, ctx: ToolContext): Promise<string> {
  if (i.insert_line === undefined || i.insert_text === undefined) throw new ToolError("insert: `insert_line` and `insert_text` are required.");
  const old = readExisting(target, dirs);
  const lines = old.split("\n");
  if (i.insert_line > lines.length) throw new ToolError(`insert: ${target.shown} has ${lines.length} line(s).`);
  lines.splice(i.insert_line, 0, ...i.insert_text.replace(/\n$/, "").split("\n"));
  await write(target, old, lines.join("\n"), ctx);
  return `Inserted into ${target.shown} after line ${i.insert_line}.`;
}

async function remove(target: MemoryPath, dirs: Record<MemoryStore, string>, ctx: ToolContext): Promise<string> {
  if (!existsSync(target.abs)) throw new ToolError(`No memory file ${target.shown}. ${existingNames(dirs, target.store)}`);
  const old = statSync(target.abs).isDirectory() ? `(folder: ${listStore(target.dir, target.rel).join(", ")})` : readFileSync(target.abs, "utf8");
  await authorize(ctx, target, old, "", `memory delete ${target.shown}`);
  rmSync(target.abs, { recursive: true });
  return `Deleted ${target.shown}.`;
}

async function rename(from: MemoryPath, to: MemoryPath, dirs: Record<MemoryStore, string>, ctx: ToolContext): Promise<string> {
  const text = readExisting(from, dirs);
  if (existsSync(to.abs)) throw new ToolError(`rename: ${to.shown} already exists.`);
  await authorize(ctx, to, "", text, `memory rename ${from.shown} -> ${to.shown}`);
  ensureStore(to, ctx.workspace.root);
  mkdirSync(path.dirname(to.abs), { recursive: true });
  renameSync(from.abs, to.abs);
  return `Renamed ${from.shown} to ${to.shown}.`;
}

/** Shows the change to the gate, then writes it whole (temp file, then rename). */
async function write(target: MemoryPath, oldText: string, newText: string, ctx: ToolContext): Promise<void> {
  await authorize(ctx, target, oldText, newText, `memory ${oldText ? "edit" : "create"} ${target.shown}`);
  ensureStore(target, ctx.workspace.root);
  mkdirSync(path.dirname(target.abs), { recursive: true });
  const temp = `${target.abs}.tmp-${process.pid}-${Date.now().toString(36)}`;
  // A new file (never one someone placed there, nor a link), then renamed over the target.
  writeFileSync(temp, newText, { mode: 0o600, flag: "wx" });
  renameSync(temp, target.abs);
}

async function authorize(ctx: ToolContext, target: MemoryPath, oldText: string, newText: string, summary: string): Promise<void> {
  const diff = unifiedDiff(oldText ? target.shown : null, newText ? target.shown : null, oldText, newText).text;
  const decision = await ctx.authorize({
    kind: "file_change",
    summary,
    diff,
    files: [{ uri: pathToFileURL(target.abs).href, path: target.abs, oldText, newText }],
    external: false,
  });
  if (!decision.allowed) throw new ToolError(`Not changed: ${decision.reason ?? "the change was declined."}`);
}
