/**
 * The dependency direction of docs/architecture.md, checked on the sources: every relative import
 * in server/src between two of its folders must be an arrow the picture allows. A new arrow
 * against it fails here, naming the file and the import.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "../../server/src");

/** Which folders each folder may import from (its own is always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  // Leaves: shared vocabulary, helpers, settings, pure engines.
  vocabulary: [],
  util: [],
  edits: [],
  config: ["vocabulary", "util"],
  protocol: ["config", "vocabulary"],
  // The seams below the agent.
  editor: ["protocol", "vocabulary", "config", "util"],
  workspace: ["editor", "edits", "vocabulary", "config", "util"],
  policy: ["knowledge", "workspace", "editor", "vocabulary", "config", "protocol", "util"],
  exec: ["vocabulary", "config", "util"],
  // The project's own instructions: rule files, skills, workflows (read, never run).
  knowledge: ["config", "vocabulary", "util"],
  // The MCP client: the SDK behind one manager; its stdio servers are contained like commands.
  mcp: ["exec", "images", "vocabulary", "config", "util"],
  providers: ["vocabulary", "config", "util"],
  // The outside world: images (sharp), the web (fetch, search, browser), the desktop.
  images: ["vocabulary", "util"],
  web: ["images", "vocabulary", "config", "util"],
  computer: ["images", "vocabulary", "config", "util"],
  tools: ["knowledge", "web", "computer", "images", "workspace", "policy", "exec", "mcp", "edits", "editor", "vocabulary", "config", "protocol", "util"],
  // The core, then the front ends that translate their wire protocols onto it.
  agent: ["knowledge", "images", "tools", "workspace", "policy", "exec", "mcp", "edits", "editor", "providers", "vocabulary", "config", "protocol", "util"],
};
/** Front ends may import anything below them, never each other; cli (and the entry file) picks one and may start any. */
const FRONT_ENDS = ["lsp", "acp"];
const LAUNCHERS = ["cli", "."];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

/** The top folder of server/src a file is in ("." for the entry file; version.ts is a leaf of its own). */
function folderOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel.length > 1) return rel[0]!;
  return rel[0]!.replace(/\.(js|ts)$/, "") === "version" ? "version" : ".";
}

/** Every folder-crossing import of the sources, as "from -> to (file: specifier)". */
function crossings(): { from: string; to: string; where: string }[] {
  const out: { from: string; to: string; where: string }[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g)) {
      const spec = m[1] ?? m[2]!;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(SRC)) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) out.push({ from, to, where: `${path.relative(SRC, file)}: ${spec}` });
    }
  }
  return out;
}

describe("dependency direction", () => {
  it("every import between folders of server/src follows docs/architecture.md", () => {
    const wrong = crossings()
      .filter(({ from, to }) => {
        if (LAUNCHERS.includes(from)) return false;
        if (FRONT_ENDS.includes(from)) return FRONT_ENDS.includes(to) || LAUNCHERS.includes(to);
        if (to === "version") return false;
        const allowed = ALLOWED[from];
        return !allowed || !allowed.includes(to);
      })
      .map(({ from, to, where }) => `${from} -> ${to} (${where})`);
    expect(wrong).toEqual([]);
  });

  it("the check sees the imports it is meant to judge", () => {
    // Guards the parser: without it, a regex that matched nothing would pass the test above.
    const seen = crossings();
    expect(seen.some((c) => c.from === "agent" && c.to === "tools")).toBe(true);
    expect(seen.some((c) => c.from === "tools" && c.to === "workspace")).toBe(true);
    expect(seen.some((c) => c.from === "lsp" && c.to === "agent")).toBe(true);
  });
});

/**
 * The rooms of tools/ and agent/ (docs/architecture.md, "Families"): each file lives at the top
 * (what every family shares) or in one family folder, and a family imports the top, itself and
 * only the neighbours listed here. The top imports no family of tools/ (a shared helper that needed
 * one would belong in that family); agent/'s top is the runtime that assembles its families.
 */
const FAMILIES: Record<string, Record<string, readonly string[]>> = {
  tools: {
    files: ["definitions"],
    commands: [],
    git: [],
    language: ["files"],
    mcp: [],
    outside: ["files"],
    session: [],
    knowledge: ["git"],
    definitions: [],
  },
  agent: {
    turn: ["compaction", "knowledge"],
    history: ["compaction", "turn"],
    compaction: ["turn", "history", "knowledge"],
    commands: ["compaction"],
    mcp: ["commands"],
    knowledge: ["commands"],
    delegation: ["turn", "history"],
  },
};
/** The most files a room keeps at its top level before it needs another family. */
const MAX_TOP_FILES = 15;
/** The line count past which a file is split by responsibility (the project's habit). */
const MAX_LINES = 400;

function familyOf(top: string, file: string): string {
  const rel = path.relative(path.join(SRC, top), file).split(path.sep);
  return rel.length > 1 ? rel[0]! : "(top)";
}

describe("families of tools/ and agent/", () => {
  for (const [top, families] of Object.entries(FAMILIES)) {
    it(`${top}/ has only the documented family folders and at most ${MAX_TOP_FILES} files at its top`, () => {
      const entries = readdirSync(path.join(SRC, top), { withFileTypes: true });
      expect(entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()).toEqual(Object.keys(families).sort());
      expect(entries.filter((e) => e.isFile()).length).toBeLessThanOrEqual(MAX_TOP_FILES);
    });

    it(`${top}/'s families import only the top, themselves and their listed neighbours`, () => {
      const wrong: string[] = [];
      for (const file of sources(path.join(SRC, top))) {
        const from = familyOf(top, file);
        for (const m of readFileSync(file, "utf8").matchAll(/from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g)) {
          const target = path.resolve(path.dirname(file), m[1] ?? m[2]!);
          if (!target.startsWith(path.join(SRC, top) + path.sep)) continue;
          const to = familyOf(top, target);
          if (to === from || to === "(top)") continue;
          const ok = from === "(top)" ? top === "agent" : families[from]!.includes(to);
          if (!ok) wrong.push(`${path.relative(SRC, file)} -> ${to}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
describe("file size", () => {
  it(`no file of server/src or editors/ is past ${MAX_LINES} lines`, () => {
    const editors = path.resolve(SRC, "../../editors");
    const all = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? all(path.join(dir, e.name)) : /\.(ts|lua|el|toml|scm)$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
    const long = [...all(SRC), ...all(editors)]
      .map((f) => ({ f, n: readFileSync(f, "utf8").split("\n").length - 1 }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${path.relative(path.resolve(SRC, "../.."), f)} (${n})`);
    expect(long).toEqual([]);
  });
});
