/**
 * The default language servers of the installed Helix, which `agent-lsp setup helix` repeats in
 * every `language-servers` list it writes (setting the key replaces them). Read from Helix itself,
 * never from a list of ours that goes stale with the next release:
 * - Helix 25.07 and newer name each language's servers in `hx --health <language>`;
 * - Helix 25.01 lists their commands there, not their names, so the names come from the
 *   languages.toml Helix ships, which is built into the `hx` executable.
 * Both are read with a throwaway config folder, so the user's own languages.toml (which
 * `setup` reads and keeps itself) does not stand in for Helix's defaults.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "smol-toml";

const run = promisify(execFile);

/** What was read from the installed Helix. */
export interface HelixDefaults {
  /** `hx --version`'s first line ("helix 25.07.1"). */
  version: string;
  /** Where the lists came from, for the report. */
  source: string;
  /** Each language's default server names, in order ([] when it has none). */
  servers: Record<string, string[]>;
}

/** Reads the default servers of `languages` from the Helix run as `hx`. Throws with the reason when it cannot. */
export async function readHelixDefaults(hx: string, languages: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<HelixDefaults> {
  const home = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-hx-"));
  // Helix's own defaults: no user config (XDG_CONFIG_HOME and HOME point at an empty folder).
  const clean = { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_CACHE_HOME: path.join(home, ".cache"), NO_COLOR: "1" };
  try {
    const version = (await helix(hx, ["--version"], clean)).split("\n")[0]!.trim();
    if (namesInHealth(version)) {
      const lists = await Promise.all(languages.map((l) => healthServers(hx, l, clean)));
      return { version, source: `hx --health <language>`, servers: Object.fromEntries(languages.map((l, i) => [l, lists[i]!])) };
    }
    const shipped = await shippedLanguagesToml(hx, clean);
    return { version, source: `the languages.toml built into ${shipped.file}`, servers: Object.fromEntries(languages.map((l) => [l, shipped.servers(l)])) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs hx; its stdout without colours. */
async function helix(hx: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run(hx, args, { env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout.replace(/\x1b\[[0-9;]*m/g, "");
  } catch (err) {
    throw new Error(`could not run Helix (${hx} ${args.join(" ")}): ${(err as Error).message.split("\n")[0]}`);
  }
}

/** Whether this Helix names servers in `--health <language>` (25.07 and newer; 25.01 shows commands). */
export function namesInHealth(version: string): boolean {
  const m = /(\d+)\.(\d+)/.exec(version);
  if (!m) return true;
  const [year, month] = [Number(m[1]), Number(m[2])];
  return year > 25 || (year === 25 && month >= 7);
}

/** The names under "Configured language servers:" of `hx --health <language>`. */
async function healthServers(hx: string, language: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const out = await helix(hx, ["--health", language], env);
  return parseHealthServers(out, language);
}

/** Parses `hx --health <language>`'s server list: "Configured language servers: None" or one "  ✓ name: ..." line each. */
export function parseHealthServers(out: string, language: string): string[] {
  const lines = out.split("\n");
  const at = lines.findIndex((l) => l.startsWith("Configured language servers:"));
  if (at < 0) throw new Error(`Helix does not know the language "${language}": ${lines[0]?.trim() ?? ""}`);
  if (/:\s*None\s*$/.test(lines[at]!)) return [];
  const names: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const m = /^\s+\S+\s+([^:\s]+):/.exec(line);
    if (!m) break;
    names.push(m[1]!);
  }
  return names;
}

/** The languages.toml inside the hx executable: where it was found, and each language's servers there. */
async function shippedLanguagesToml(hx: string, env: NodeJS.ProcessEnv): Promise<{ file: string; servers: (language: string) => string[] }> {
  for (const file of await executables(hx, env)) {
    const text = embeddedLanguagesToml(file);
    if (text) return { file, servers: (language) => languageServersIn(text, language) };
  }
  throw new Error(`could not find the languages.toml built into Helix (looked in ${hx} and beside its runtime folders)`);
}

/**
 * Where the hx executable may be: `hx` itself when it is one (not a wrapper script), and `hx`
 * beside each runtime folder `hx --health` reports (a distribution's /usr/lib/hx/runtime).
 */
async function executables(hx: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const found = [which(hx, env)].filter((f): f is string => Boolean(f));
  const health = await helix(hx, ["--health"], env).catch(() => "");
  const dirs = /^Runtime directories:\s*(.*)$/m.exec(health)?.[1]?.split(";") ?? [];
  for (const dir of dirs) found.push(path.join(path.dirname(dir.trim()), "hx"));
  return [...new Set(found.filter((f) => existsSync(f)).map((f) => realpathSync(f)))];
}

function which(command: string, env: NodeJS.ProcessEnv): string | undefined {
  if (command.includes(path.sep)) return command;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, command);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

/** The text of the languages.toml compiled into an executable, from its first line on; undefined when it has none. */
export function embeddedLanguagesToml(file: string): string | undefined {
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 4).toString("latin1") !== "\x7fELF" && bytes.subarray(0, 2).toString("latin1") !== "MZ" && bytes.readUInt32BE(0) !== 0xcffaedfe) return undefined;
  const text = bytes.toString("latin1");
  const start = text.indexOf("# Language support configuration.");
  // The file's end is not marked (other strings follow it): lookups stop at their block's end.
  return start < 0 ? undefined : text.slice(start);
}

/** The server names of `language`'s `[[language]]` block in a languages.toml text ([] when it sets none). */
export function languageServersIn(text: string, language: string): string[] {
  const header = new RegExp(`\\n\\[\\[language\\]\\]\\r?\\nname = "${language.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\r?\\n`);
  const m = header.exec(text);
  if (!m) throw new Error(`Helix's languages.toml has no language "${language}"`);
  const block = text.slice(m.index + m[0].length, nextTable(text, m.index + m[0].length));
  const key = /^language-servers\s*=\s*/m.exec(block);
  if (!key) return [];
  const value = balanced(block, key.index + key[0].length);
  const parsed = parse(`v = ${value}`) as { v: unknown[] };
  return parsed.v.map((s) => (typeof s === "string" ? s : String((s as { name?: unknown }).name)));
}

/** Where the next table header after `from` starts. */
function nextTable(text: string, from: number): number {
  const m = /\n\[/.exec(text.slice(from));
  return m ? from + m.index : text.length;
}

/** The bracketed value starting at `at` (an array, maybe over lines, with strings and inline tables). */
function balanced(text: string, at: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? text.length : eol - 1;
    }
    else if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) return text.slice(at, i + 1);
  }
  throw new Error("Helix's languages.toml: a language-servers list does not end");
}
