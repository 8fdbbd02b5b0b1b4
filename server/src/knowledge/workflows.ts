/**
 * Workflows: `.agent-lsp/workflows/<name>.md`, a list of steps the user starts with
 * `/<name>` (the steps go in as the user's message) and the model loads with load_workflow.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { folderInProject, readTextFile } from "./text-file.js";

/** One workflow. */
export interface Workflow {
  name: string;
  file: string;
  /** First non-empty line without its `#`: the summary shown in the command list. */
  summary: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The project's workflows, by file name (names that are not command-safe are skipped). */
export function listWorkflows(root: string): Workflow[] {
  const dir = workflowDir(root);
  // A workflows folder linked out of the project lists nothing: its files would reach the model.
  if (!folderInProject(dir, root)) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  } catch {
    return [];
  }
  return names
    .map((n) => ({ name: n.slice(0, -3), file: path.join(dir, n) }))
    .filter((w) => NAME.test(w.name))
    .map((w) => ({ ...w, summary: summaryOf(w.file, root) }));
}

/** A workflow's steps; throws an Error naming the file when it is missing or not UTF-8. */
export function readWorkflow(root: string, name: string): { file: string; steps: string } {
  const known = listWorkflows(root).find((w) => w.name === name);
  if (!known) {
    const names = listWorkflows(root).map((w) => w.name);
    throw new Error(`No workflow "${name}" in ${workflowDir(root)}${names.length ? `; there are: ${names.join(", ")}` : " (the folder has none)"}.`);
  }
  // The steps go to the model (load_workflow) or in as the user's message: never from outside the project.
  const read = readTextFile(known.file, root);
  if (!read) throw new Error(`${known.file} is gone.`);
  if (!read.ok) throw new Error(read.reason);
  return { file: known.file, steps: read.text };
}

/** Where a project's workflows live. */
export function workflowDir(root: string): string {
  return path.join(root, ".agent-lsp", "workflows");
}

function summaryOf(file: string, root: string): string {
  const read = readTextFile(file, root);
  if (!read?.ok) return "A workflow (its file could not be read).";
  const line = read.text.split(/\r?\n/).find((l) => l.trim()) ?? "";
  return line.replace(/^#+\s*/, "").trim().slice(0, 120) || "A workflow.";
}
