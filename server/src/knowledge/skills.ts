/**
 * Skills: a folder with a SKILL.md (front matter `name`, `description`, optional
 * `allowed_tools` and `run: main`) and any files beside it, found in the project's
 * `.agent-lsp/skills/` and `.agents/skills/` and the user's `~/.config/agent-lsp/skills/`.
 * A bad SKILL.md is a problem naming the file; the other skills still load.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseFrontMatter } from "./front-matter.js";
import { readTextFile } from "./text-file.js";

/** Where a skill comes from: the repository (trusted once the user approved it) or the user. */
export type SkillSource = "project" | "user";

/** One skill. */
export interface Skill {
  name: string;
  description: string;
  /** The tools its sub-turn may use; undefined: every tool of the session. */
  allowedTools?: string[];
  /** "main": its instructions are followed in the calling turn instead of a sub-turn. */
  run: "subturn" | "main";
  source: SkillSource;
  /** The SKILL.md file, absolute. */
  file: string;
  /** The instructions (the text after the front matter). */
  body: string;
  /** SKILL.md as read (front matter and all): what skillDigest hashes, so it covers exactly what was shown. */
  text: string;
  /** Files beside SKILL.md, relative to its folder (at most MAX_FILES). */
  files: string[];
}

/** The skills found, and the SKILL.md files that could not be used. */
export interface LoadedSkills {
  skills: Skill[];
  problems: string[];
}

const MAX_FILES = 200;
/** Files beside SKILL.md up to this size are hashed by content for the approval. */
const MAX_HASHED_BYTES = 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The skill folders, in the order their skills win a name clash. */
export function skillDirs(root: string, userDir: string): { dir: string; source: SkillSource }[] {
  return [
    { dir: path.join(root, ".agent-lsp", "skills"), source: "project" },
    { dir: path.join(root, ".agents", "skills"), source: "project" },
    { dir: path.join(userDir, "skills"), source: "user" },
  ];
}

/** Finds every skill; the first of two with one name wins, and the clash is reported. */
export function discoverSkills(root: string, userDir: string): LoadedSkills {
  const skills: Skill[] = [];
  const problems: string[] = [];
  for (const { dir, source } of skillDirs(root, userDir)) {
    for (const folder of subfolders(dir)) {
      const file = path.join(dir, folder, "SKILL.md");
      const loaded = loadSkill(file, source, root);
      if (loaded === undefined) continue;
      if (typeof loaded === "string") problems.push(loaded);
      else if (skills.some((s) => s.name === loaded.name)) problems.push(`${file}: a skill named "${loaded.name}" was already found (${skills.find((s) => s.name === loaded.name)!.file}); this one is ignored.`);
      else skills.push(loaded);
    }
  }
  return { skills, problems };
}

/**
 * One SKILL.md as a skill, a problem naming the file, or undefined when there is none. A project
 * skill's SKILL.md must really be in the project (`root`): its description goes into the system
 * prompt before any approval, and the approval names the file in the project, not where a link
 * would lead. A skill of your own, kept elsewhere, belongs in `~/.config/agent-lsp/skills`.
 */
export function loadSkill(file: string, source: SkillSource, root: string): Skill | string | undefined {
  const read = readTextFile(file, source === "project" ? root : undefined);
  if (!read) return undefined;
  if (!read.ok) return read.reason;
  let parsed;
  try {
    parsed = parseFrontMatter(read.text);
  } catch (err) {
    return `${file}: ${(err as Error).message}; the skill was not loaded.`;
  }
  const { name, description, allowed_tools: allowed, run } = parsed.fields;
  if (typeof name !== "string" || !NAME.test(name)) return `${file}: front matter needs \`name:\` (letters, digits, ".", "_" or "-"); the skill was not loaded.`;
  if (typeof description !== "string" || !description.trim()) return `${file}: front matter needs \`description:\`; the skill was not loaded.`;
  if (run !== undefined && run !== "main" && run !== "subturn") return `${file}: \`run:\` is "main" or "subturn", not "${String(run)}"; the skill was not loaded.`;
  const dir = path.dirname(file);
  const files = listFiles(dir).filter((f) => f !== "SKILL.md");
  return {
    name,
    description: description.trim(),
    ...(allowed !== undefined ? { allowedTools: Array.isArray(allowed) ? allowed : allowed.split(/[\s,]+/).filter(Boolean) } : {}),
    run: run === "main" ? "main" : "subturn",
    source,
    file,
    body: parsed.body,
    text: read.text,
    files,
  };
}

/**
 * What an approval covers: SKILL.md and every file beside it, by name and content (a script
 * changed by a pull must be approved again), files past MAX_HASHED_BYTES by size and time.
 * Computed when an approval is checked, not at discovery (which runs every turn).
 */
export function skillDigest(skill: Skill): string {
  const dir = path.dirname(skill.file);
  const hash = createHash("sha256").update(skill.text);
  for (const f of skill.files) {
    hash.update(`\0${f}\0`);
    try {
      const st = statSync(path.join(dir, f));
      hash.update(st.size <= MAX_HASHED_BYTES ? readFileSync(path.join(dir, f)) : `${st.size}:${st.mtimeMs}`);
    } catch {
      hash.update("unreadable");
    }
  }
  return hash.digest("hex").slice(0, 32);
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The files under `dir`, relative, sorted, at most MAX_FILES (dot-folders skipped). */
function listFiles(dir: string, prefix = "", out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= MAX_FILES) break;
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!e.name.startsWith(".")) listFiles(dir, rel, out);
    } else if (e.isFile()) out.push(rel);
  }
  return out;
}
