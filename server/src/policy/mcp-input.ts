/**
 * What an MCP tool's arguments may touch of the sensitive places. An MCP server does what its tool
 * does with them, so the gate cannot know which argument is a file; it reads every string that
 * looks like a path (`/...`, `~/...`, `$HOME/...`, `./...`, `file://...`) and every argument that
 * looks like a command line (`command`, `cmd`, `script`..., or an `args`/`argv` list), judged as
 * execute_command's would be: `cat ~/.ssh/id_rsa` given to a shell server is a credential read.
 */
import path from "node:path";
import { expandPathInput } from "../workspace/paths.js";
import { commandSensitiveScopes, type CommandPlace } from "./command-scopes.js";
import type { Scope } from "./rules.js";
import { sensitiveScopes } from "./sensitive-scopes.js";
import type { SensitivePlaces } from "./sensitive.js";

/** Keys whose string value is a command line. */
const COMMAND_KEYS = /^(command|cmd|commands|script|shell|shell_command|command_?line|commandline|run|exec|execute|bash|sh)$/i;
/** Keys whose list of strings is one command's words. */
const ARGV_KEYS = /^(args|argv|arguments|command_args)$/i;
/** A string that names a file the way a user writes one. */
const PATH_LIKE = /^(~(\/|$)|\/|\$HOME\b|\$\{HOME\}|file:|\.\.?\/)/;
/** Keys whose string value is a path, however it is written (`keys/id_rsa` may be a link). */
const PATH_KEYS = /^(path|paths|file|files|file_?path|filename|cwd|dir|directory|folder|source|src|destination|dest|target)$/i;

/** How much of an input is read: deep enough for real tools, bounded for hostile ones. */
const MAX_DEPTH = 6;
const MAX_STRINGS = 200;

/** One string of the input, with the key it was found under. */
interface Found {
  key: string;
  value: string | string[];
}

/** The sensitive scopes of an MCP tool's input, each with the path it names. */
export async function mcpSensitiveScopes(input: unknown, place: CommandPlace & { sensitive: SensitivePlaces }, access: "read" | "write"): Promise<{ path: string; scope: Scope }[]> {
  const found = strings(input);
  const named = found.filter((f): f is Found & { value: string } => typeof f.value === "string" && f.value !== "" && (PATH_LIKE.test(f.value) || PATH_KEYS.test(f.key)));
  const paths = named.map((f) => path.resolve(place.root, expandPathInput(f.value.replace(/^\$(HOME\b|\{HOME\})/, "~"), place.home)));
  const out = await sensitiveScopes([...new Set(paths)], access, place.sensitive, place.root);
  for (const f of found) {
    const line = typeof f.value === "string" ? (COMMAND_KEYS.test(f.key) ? f.value : undefined) : f.value.map(quote).join(" ");
    if (line === undefined) continue;
    for (const scope of await commandSensitiveScopes(line, place)) out.push({ path: scope.sensitive!.path, scope });
  }
  return out;
}

/** The strings of `input` (and the string lists under argv-like keys), depth- and count-bounded. */
function strings(input: unknown): Found[] {
  const out: Found[] = [];
  const visit = (value: unknown, key: string, depth: number): void => {
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof value === "string") out.push({ key, value });
    else if (Array.isArray(value)) {
      if (ARGV_KEYS.test(key) && value.every((v) => typeof v === "string")) out.push({ key, value: value as string[] });
      for (const v of value) visit(v, key, depth + 1);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, k, depth + 1);
    }
  };
  visit(input, "", 0);
  return out;
}

/** A word as the shell would have to be given it to receive it unchanged. */
function quote(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
