/**
 * The approvals files.
 *
 * `<root>/.agent-lsp/approvals.toml` keeps the "Yes, don't ask again" answers across servers when
 * `remember_approvals = true`. Each entry carries a signature made with the user's key (see
 * approvals-key.ts): an entry agent-lsp did not write from the user's answer grants nothing, and
 * deleting an entry still revokes it at once. Unsigned entries are kept in the file (they are the
 * user's text) but ignored, and reported.
 *
 * `~/.config/agent-lsp/approvals.toml` is the user's own, written on purpose, outside every
 * project: its entries need no signature and hold in every project.
 *
 * Directories inside the project are stored relative to it.
 */
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { parse, stringify } from "smol-toml";
import { z } from "zod";
import { asStateError, ensureStateFolder, readStateFile, stateFolder, StateFolderError, stateLocation, writeStateFile } from "../util/state-folder.js";
import { isInside } from "../workspace/paths.js";
import { signEntry, verifyEntry } from "./approvals-key.js";
import type { ApprovalRule } from "./rules.js";

/** Where a project's approvals live. */
export function approvalsPath(root: string): string {
  return path.join(stateFolder(root), "approvals.toml");
}

/** Where the user's own pre-approvals live, given their config folder. */
export function userApprovalsPath(configDir: string): string {
  return path.join(configDir, "approvals.toml");
}

const sig = z.string().optional();
const fileSchema = z.object({
  file: z.array(z.object({ tool: z.string().min(1), dir: z.string().min(1), sig })).optional(),
  program: z.array(z.object({ name: z.string().min(1), sig })).optional(),
  external: z.array(z.object({ dir: z.string().min(1), access: z.enum(["read", "write"]), sig })).optional(),
  tool: z.array(z.object({ name: z.string().min(1), sig })).optional(),
  mcp_server: z.array(z.object({ name: z.string().min(1), command: z.string().min(1), sig })).optional(),
});
type FileData = z.infer<typeof fileSchema>;
/** One entry of an approvals file, as written and as a rule. */
export type Entry = { table: keyof FileData; raw: Record<string, string>; rule: ApprovalRule };

const HEADER = [
  "# Approvals agent-lsp remembers (\"Yes, don't ask again\"), used while remember_approvals = true.",
  "# [[file]]: a tool may change files under dir (relative to the project) without asking.",
  "# [[program]]: commands running this program run without asking.",
  "# [[external]]: paths under this folder outside the project may be read (or written).",
  "# [[tool]]: the tool runs without asking. Delete an entry to be asked again.",
  "# [[mcp_server]]: the MCP server this project defines may start with exactly this command line",
  "# (recorded whatever remember_approvals says). Delete it to be asked again.",
  "# Each entry is signed with a key in your state folder: an entry agent-lsp did not write from",
  "# your answer grants nothing. To pre-approve by hand, use ~/.config/agent-lsp/approvals.toml.",
  "",
].join("\n");

/** What loading found. */
export interface LoadedApprovals {
  rules: ApprovalRule[];
  /** The signatures of those rules' entries (the approvals ledger compares them with what it wrote). */
  signatures: string[];
  /** Entries without a valid signature: kept in the file, granting nothing. */
  unsigned: Entry[];
  /** Of those, the entries signed for an earlier generation: revoked since, and brought back with an old file. */
  revoked: Entry[];
  /** Set when the file exists but could not be used (it is then ignored, not overwritten). */
  error?: string;
}

/**
 * Reads a project's remembered approvals, keeping only entries signed with `key` for the
 * project's current approvals `generation` (approvals-ledger.ts); a missing file is none.
 */
export async function loadApprovals(root: string, key: Buffer | undefined, generation = 0): Promise<LoadedApprovals> {
  const file = approvalsPath(root);
  const read = await readApprovalsFile(file, root);
  if ("error" in read) return { rules: [], signatures: [], unsigned: [], revoked: [], error: read.error };
  const realRoot = await realRootOf(root);
  const entries = entriesOf(read.data, (dir) => path.resolve(root, dir));
  const signedFor = (e: Entry, g: number) => key !== undefined && e.raw.sig !== undefined && verifyEntry(key, signedFields(realRoot, root, e.rule, g), e.raw.sig);
  const signed = entries.filter((e) => signedFor(e, generation));
  const unsigned = entries.filter((e) => !signed.includes(e));
  const revoked = unsigned.filter((e) => Array.from({ length: generation }, (_, g) => g).some((g) => signedFor(e, g)));
  return { rules: signed.map((e) => e.rule), signatures: signed.map((e) => e.raw.sig!), unsigned, revoked };
}

/** Reads the user's pre-approvals for a project: `~/` is the home folder, other relative dirs the project. */
export async function loadUserApprovals(file: string, root: string, home: string): Promise<{ rules: ApprovalRule[]; error?: string }> {
  const read = await readApprovalsFile(file);
  if ("error" in read) return { rules: [], error: read.error };
  const resolveDir = (dir: string) => (dir === "~" ? home : dir.startsWith("~/") ? path.join(home, dir.slice(2)) : path.resolve(root, dir));
  return { rules: entriesOf(read.data, resolveDir).map((e) => e.rule) };
}

/**
 * Writes the signed rules of the project for approvals `generation`, keeping the unsigned entries
 * as they were (temp file then rename). Returns the signatures written.
 */
export async function saveApprovals(root: string, key: Buffer, rules: readonly ApprovalRule[], unsigned: readonly Entry[] = [], generation = 0): Promise<string[]> {
  const file = approvalsPath(root);
  ensureStateFolder(root);
  const realRoot = await realRootOf(root);
  const out: Record<string, Record<string, string>[]> = {};
  const signatures: string[] = [];
  for (const r of rules) {
    const { table, raw } = toEntry(root, r);
    const sig = signEntry(key, signedFields(realRoot, root, r, generation));
    signatures.push(sig);
    (out[table] ??= []).push({ ...raw, sig });
  }
  for (const e of unsigned) (out[e.table] ??= []).push(e.raw);
  try {
    // A temp file made new beside it, then renamed over it: a link there is replaced, never followed.
    writeStateFile(file, HEADER + stringify(out), 0o644);
  } catch (err) {
    throw asStateError(err, `Could not write ${file}`);
  }
  return signatures;
}

/**
 * Reads an approvals file. The project's (`root` given) is agent-lsp's own record in a folder the
 * repository shipped: read without following a link (nor a linked `.agent-lsp`), since its
 * unsigned entries are written back into it, a file a team commits; a link to your own
 * approvals.toml would copy your pre-approvals there. Such a file is an error: ignored, not
 * overwritten. The user's own file is read wherever it leads.
 */
async function readApprovalsFile(file: string, root?: string): Promise<{ data: FileData } | { error: string }> {
  let text: string;
  try {
    if (root !== undefined) stateLocation(root); // refuses a linked .agent-lsp
    text = root !== undefined ? readStateFile(file) : await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { data: {} };
    if (err instanceof StateFolderError) return { error: err.message };
    return { error: `${file} cannot be read: ${(err as Error).message}` };
  }
  try {
    return { data: fileSchema.parse(parse(text)) };
  } catch (err) {
    return { error: `${file} is not a valid approvals file: ${(err as Error).message.split("\n")[0]}` };
  }
}

function entriesOf(data: FileData, resolveDir: (dir: string) => string): Entry[] {
  const raw = (o: object) => o as Record<string, string>;
  return [
    ...(data.file ?? []).map((f): Entry => ({ table: "file", raw: raw(f), rule: { kind: "file", tool: f.tool, dir: resolveDir(f.dir) } })),
    ...(data.program ?? []).map((p): Entry => ({ table: "program", raw: raw(p), rule: { kind: "program", program: p.name } })),
    ...(data.external ?? []).map(
      (e): Entry => ({ table: "external", raw: raw(e), rule: { kind: "external", dir: resolveDir(e.dir), access: e.access } }),
    ),
    ...(data.tool ?? []).map((t): Entry => ({ table: "tool", raw: raw(t), rule: { kind: "tool", tool: t.name } })),
    ...(data.mcp_server ?? []).map(
      (m): Entry => ({ table: "mcp_server", raw: raw(m), rule: { kind: "mcp_server", name: m.name, command: m.command } }),
    ),
  ];
}

function toEntry(root: string, r: ApprovalRule): { table: keyof FileData; raw: Record<string, string> } {
  switch (r.kind) {
    case "file":
      return { table: "file", raw: { tool: r.tool, dir: relativeDir(root, r.dir) } };
    case "program":
      return { table: "program", raw: { name: r.program } };
    case "external":
      return { table: "external", raw: { dir: r.dir, access: r.access } };
    case "tool":
      return { table: "tool", raw: { name: r.tool } };
    case "mcp_server":
      return { table: "mcp_server", raw: { name: r.name, command: r.command } };
  }
}

/**
 * What a signature covers: the project (by its real path), its approvals generation (from the
 * first revocation on; generation 0 signs as before generations existed) and the entry as stored.
 */
function signedFields(realRoot: string, root: string, rule: ApprovalRule, generation: number): string[] {
  const { table, raw } = toEntry(root, rule);
  return [realRoot, ...(generation > 0 ? [`generation=${generation}`] : []), table, ...Object.entries(raw).map(([k, v]) => `${k}=${v}`)];
}

/** The project's real path (what signatures and the approvals ledger name it by). */
export async function realRootOf(root: string): Promise<string> {
  return realpath(root).catch(() => path.resolve(root));
}

function relativeDir(root: string, dir: string): string {
  if (!isInside(root, dir)) return dir;
  return path.relative(root, dir).split(path.sep).join("/") || ".";
}
