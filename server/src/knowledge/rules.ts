/**
 * The rule files a session follows (AGENTS.md and friends), in the order the system prompt
 * carries them: the user's own, the project's (AGENTS.md, else CLAUDE.md), the AGENTS.md files
 * of the folders between the root and the file the prompt is about (nearest last), then
 * `.agent-lsp/rules/*.md`. Read fresh for every turn, so an edited file counts at the next one.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { estimateTokens, folderInProject, readTextFile } from "./text-file.js";

/** Where a rule file comes from. */
export type RuleSource = "user" | "project" | "folder" | "rules";

/** One rule file as it goes into the prompt. */
export interface RuleFile {
  path: string;
  source: RuleSource;
  /** The text included (cut to the budget; empty when it did not fit at all). */
  text: string;
  /** Tokens of the whole file, and of what was included. */
  tokens: number;
  includedTokens: number;
  /** Set when the file was cut or left out for the budget. */
  cut?: string;
}

/** The rule files of a turn, and the files that could not be used. */
export interface LoadedRules {
  files: RuleFile[];
  /** One line per unreadable file (not UTF-8, no permission), naming it. */
  problems: string[];
}

/** Where to look. */
export interface RulePlaces {
  root: string;
  /** The user's config folder (`~/.config/agent-lsp`). */
  userDir: string;
  /** The file the prompt is about, absolute; its folders' AGENTS.md files are added. */
  focusFile?: string;
  /** Most tokens all rule files together may take. */
  budgetTokens: number;
}

/** The candidate files, in prompt order, each with its source. */
export function ruleCandidates(places: RulePlaces): { path: string; source: RuleSource }[] {
  const { root } = places;
  const out: { path: string; source: RuleSource }[] = [{ path: path.join(places.userDir, "AGENTS.md"), source: "user" }];
  const agents = path.join(root, "AGENTS.md");
  out.push({ path: existsSync(agents) ? agents : path.join(root, "CLAUDE.md"), source: "project" });
  for (const dir of foldersBetween(root, places.focusFile)) out.push({ path: path.join(dir, "AGENTS.md"), source: "folder" });
  const rulesDir = path.join(root, ".agent-lsp", "rules");
  // A rules folder linked out of the project is one candidate, refused with its reason when read,
  // so the names of what it leads to are never listed.
  if (!folderInProject(rulesDir, root)) out.push({ path: rulesDir, source: "rules" });
  else for (const name of listMarkdown(rulesDir)) out.push({ path: path.join(rulesDir, name), source: "rules" });
  return out;
}

/** Reads the rule files and fits them into the budget, in order: what comes later is cut first. */
export function loadRules(places: RulePlaces): LoadedRules {
  const files: RuleFile[] = [];
  const problems: string[] = [];
  let room = places.budgetTokens;
  for (const candidate of ruleCandidates(places)) {
    // The user's own file is read wherever it leads; the project's must really be in the project.
    const read = readTextFile(candidate.path, candidate.source === "user" ? undefined : places.root);
    if (!read) continue;
    if (!read.ok) {
      problems.push(read.reason);
      continue;
    }
    if (!read.text.trim()) continue;
    const file = fitToBudget(candidate, read.text, room);
    room -= file.includedTokens;
    files.push(file);
  }
  return { files, problems };
}

/** The file whole when it fits, else its beginning with a note of what was cut. */
function fitToBudget(candidate: { path: string; source: RuleSource }, text: string, room: number): RuleFile {
  const tokens = estimateTokens(text);
  if (tokens <= room) return { ...candidate, text, tokens, includedTokens: tokens };
  const keep = Math.max(room, 0) * 4;
  const cut = keep > 0
    ? `cut after ${Math.floor(keep / 4)} of ${tokens} tokens: the rules budget (knowledge.rules_budget_tokens) is spent; read the file for the rest`
    : `left out (${tokens} tokens): the rules budget (knowledge.rules_budget_tokens) is spent; read the file yourself`;
  const kept = text.slice(0, keep);
  return { ...candidate, text: kept, tokens, includedTokens: estimateTokens(kept), cut };
}

/** The folders strictly below `root` down to the focus file's own folder, outermost first. */
function foldersBetween(root: string, focusFile: string | undefined): string[] {
  if (!focusFile) return [];
  const rel = path.relative(root, path.dirname(focusFile));
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) return [];
  const parts = rel.split(path.sep);
  return parts.map((_, i) => path.join(root, ...parts.slice(0, i + 1)));
}

function listMarkdown(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  } catch {
    return [];
  }
}
