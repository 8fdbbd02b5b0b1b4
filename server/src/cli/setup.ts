/**
 * `agent-lsp setup helix [--write] [--hx PATH]`: prints the languages.toml snippet that makes
 * agent-lsp an extra language server in Helix, or merges it into the user's languages.toml
 * (backup first). Each language's list repeats the installed Helix's own default servers, read
 * from it (helix-defaults.ts).
 */
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "smol-toml";
import { flagValue, parseArgs } from "./args.js";
import { readHelixDefaults, type HelixDefaults } from "./helix-defaults.js";
import { HELIX_LANGUAGES, helixLanguagesSnippet, helixServerSnippet } from "./helix-languages.js";
import { mergeHelixLanguages } from "./helix-merge.js";

const USAGE = "Usage: agent-lsp setup helix [--write] [--hx PATH]   (--hx: the Helix to read the default servers from; default hx on PATH)";

/** Runs the subcommand; the exit code. */
export async function setupCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ["hx"], flags: ["write"] });
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.positionals[0] !== "helix" || args.positionals.length > 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let helix: HelixDefaults;
  try {
    helix = await readHelixDefaults(flagValue(args, "hx") ?? "hx", HELIX_LANGUAGES.map((l) => l.name));
  } catch (err) {
    // Without Helix's own defaults a list would drop its servers: nothing is written.
    const why = `agent-lsp setup helix: cannot read the default language servers of your Helix: ${(err as Error).message}`;
    if (args.flags.has("write")) {
      process.stderr.write(`${why}\nNothing was written. Run it where \`hx\` is on PATH, or name it with --hx PATH.\n`);
    } else {
      process.stdout.write(helixServerSnippet());
      process.stderr.write(`${why}\nPrinted the server entry only; add "agent-lsp" to each language's list by hand (hx --health <language> lists the defaults).\n`);
    }
    return 1;
  }
  if (!args.flags.has("write")) {
    process.stdout.write(helixLanguagesSnippet(helix));
    return 0;
  }
  const lines = writeHelixSetup(helixConfigDir(process.env, process.platform), helix);
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

/** Helix's config folder: %AppData%\helix on Windows, else $XDG_CONFIG_HOME/helix or ~/.config/helix. */
function helixConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform === "win32") return path.join(env.APPDATA || path.join(os.homedir(), "AppData", "Roaming"), "helix");
  const xdg = env.XDG_CONFIG_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".config"), "helix");
}

/**
 * Merges the snippet into `<dir>/languages.toml`: a backup of the old file first, then an
 * atomic replace. Returns the report lines. Throws (nothing written) when the merge is not safe.
 */
function writeHelixSetup(dir: string, helix: HelixDefaults, now = new Date()): string[] {
  const file = path.join(dir, "languages.toml");
  const existed = existsSync(file);
  const before = existed ? readFileSync(file, "utf8") : "";
  const { text, changes, notes } = mergeHelixLanguages(before, helix);
  const out = [`Helix languages.toml: ${file}`, `Helix: ${helix.version} (default servers read from ${helix.source})`];
  if (!changes.length) {
    out.push("agent-lsp is already set up there: nothing changed.");
  } else {
    mkdirSync(dir, { recursive: true });
    if (existed) out.push(`backup: ${backup(file, now)}`);
    replaceFile(file, text, existed ? statSync(file).mode : undefined);
    out.push(...changes.map((c) => `  ${c}`));
    if (changes.some((c) => c.startsWith("added [language-server.")) && !onPath("agent-lsp")) {
      out.push(
        "note: `agent-lsp` is not on your PATH. Install it (in your clone of agent-lsp: npm install && npm install -g .), or point Helix at the bundle:",
        `  [language-server.agent-lsp] command = "node", args = ["/path/to/agent-lsp/server/dist/agent-lsp.js", "--stdio"]`,
      );
    }
  }
  out.push(...notes.map((n) => `note: ${n}`));
  out.push(...progressNote(path.join(dir, "config.toml")));
  return out;
}

/** Copies `file` to `file.bak-<timestamp>` (never over an older backup); returns the copy's path. */
function backup(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, "Z").replace(/:/g, "-");
  for (let n = 1; ; n++) {
    const target = `${file}.bak-${stamp}${n > 1 ? `-${n}` : ""}`;
    if (existsSync(target)) continue;
    copyFileSync(file, target, constants.COPYFILE_EXCL);
    return target;
  }
}

/** Writes beside the file and renames over it, so Helix never reads half a file. */
function replaceFile(file: string, text: string, mode?: number): void {
  const temp = `${file}.agent-lsp-${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: mode ?? 0o644 });
  renameSync(temp, file);
}

function onPath(command: string): boolean {
  const exts = process.platform === "win32" ? (process.env.PATHEXT ?? ".EXE;.CMD").split(";") : [""];
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) =>
    exts.some((ext) => {
      try {
        accessSync(path.join(dir, command + ext), constants.X_OK);
        return true;
      } catch {
        return false; // not in this folder: the next one may have it
      }
    }),
  );
}

/** The note on config.toml's `editor.lsp.display-progress-messages`, unless it is on already. */
function progressNote(configFile: string): string[] {
  const note = ["note: to see the agent's progress in the status line, add to config.toml:", "  [editor.lsp]", "  display-progress-messages = true"];
  if (!existsSync(configFile)) return note;
  let config: { editor?: { lsp?: Record<string, unknown> } };
  try {
    config = parse(readFileSync(configFile, "utf8")) as typeof config;
  } catch (err) {
    return [`note: ${configFile} is not valid TOML (${(err as Error).message.split("\n")[0]}); Helix will not read it either.`, ...note];
  }
  return config.editor?.lsp?.["display-progress-messages"] === true ? [] : note;
}
