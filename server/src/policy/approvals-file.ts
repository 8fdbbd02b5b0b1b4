/**
 * `<root>/.agent-lsp/approvals.toml`: the "Yes, don't ask again" answers kept across servers when
 * config `remember_approvals = true`. Human-readable on purpose: deleting an entry revokes it.
 * Directories inside the project are stored relative to it, so the file survives a moved project.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse, stringify } from "smol-toml";
import { z } from "zod";
import { isInside } from "../workspace/paths.js";
import type { ApprovalRule } from "./rules.js";

/** Where a project's approvals live. */
export function approvalsPath(root: string): string {
  return path.join(root, ".agent-lsp", "approvals.toml");
}

const fileSchema = z.object({
  file: z.array(z.object({ tool: z.string().min(1), dir: z.string().min(1) })).optional(),
  program: z.array(z.object({ name: z.string().min(1) })).optional(),
  external: z.array(z.object({ dir: z.string().min(1), access: z.enum(["read", "write"]) })).optional(),
  tool: z.array(z.object({ name: z.string().min(1) })).optional(),
});

const HEADER = [
  "# Approvals agent-lsp remembers (\"Yes, don't ask again\"), used while remember_approvals = true.",
  "# [[file]]: a tool may change files under dir (relative to the project) without asking.",
  "# [[program]]: commands running this program run without asking.",
  "# [[external]]: paths under this folder outside the project may be read (or written).",
  "# [[tool]]: the tool runs without asking. Delete an entry to be asked again.",
  "",
].join("\n");

/** What loading found. */
export interface LoadedApprovals {
  rules: ApprovalRule[];
  /** Set when the file exists but could not be used (it is then ignored, not overwritten). */
  error?: string;
}

/** Reads a project's remembered approvals; a missing file is none. */
export async function loadApprovals(root: string): Promise<LoadedApprovals> {
  const file = approvalsPath(root);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { rules: [] };
    return { rules: [], error: `${file} cannot be read: ${(err as Error).message}` };
  }
  try {
    const data = fileSchema.parse(parse(text));
    return { rules: fromFile(root, data) };
  } catch (err) {
    return { rules: [], error: `${file} is not a valid approvals file: ${(err as Error).message.split("\n")[0]}` };
  }
}

/** Writes every rule of the project (temp file then rename: never a torn file). */
export async function saveApprovals(root: string, rules: readonly ApprovalRule[]): Promise<void> {
  const file = approvalsPath(root);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, HEADER + stringify(toFile(root, rules)));
  await rename(tmp, file);
}

function fromFile(root: string, data: z.infer<typeof fileSchema>): ApprovalRule[] {
  return [
    ...(data.file ?? []).map((f): ApprovalRule => ({ kind: "file", tool: f.tool, dir: path.resolve(root, f.dir) })),
    ...(data.program ?? []).map((p): ApprovalRule => ({ kind: "program", program: p.name })),
    ...(data.external ?? []).map((e): ApprovalRule => ({ kind: "external", dir: path.resolve(root, e.dir), access: e.access })),
    ...(data.tool ?? []).map((t): ApprovalRule => ({ kind: "tool", tool: t.name })),
  ];
}

function toFile(root: string, rules: readonly ApprovalRule[]): Record<string, Record<string, string>[]> {
  const out: Record<string, Record<string, string>[]> = {};
  const add = (key: string, entry: Record<string, string>) => (out[key] ??= []).push(entry);
  for (const r of rules) {
    if (r.kind === "file") add("file", { tool: r.tool, dir: relativeDir(root, r.dir) });
    else if (r.kind === "program") add("program", { name: r.program });
    else if (r.kind === "external") add("external", { dir: r.dir, access: r.access });
    else add("tool", { name: r.tool });
  }
  return out;
}

function relativeDir(root: string, dir: string): string {
  if (!isInside(root, dir)) return dir;
  return path.relative(root, dir).split(path.sep).join("/") || ".";
}
