/**
 * Strict command-line parsing for the terminal commands, on node:util's parseArgs: every command
 * declares its options, and anything else is a usage error naming the option and the closest valid
 * one (`--mdoe` never becomes part of a prompt); `--` ends the options; `-h`/`--help` is known to
 * every command.
 */
import { parseArgs as parseTokens } from "node:util";
import { editDistance } from "../util/edit-distance.js";

/** A command line that does not fit the command: exit status 2, the message and where help is. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The options one command takes. */
export interface ArgSpec {
  /** Options that take a value (`--mode X` or `--mode=X`); the last one given wins. */
  valued?: readonly string[];
  /** Options that take a value and may be given again (`--header A --header B`). */
  repeated?: readonly string[];
  /** Options without a value. */
  flags?: readonly string[];
  /** One-letter spellings: `{ e: "env" }` makes `-e` mean `--env`. */
  short?: Readonly<Record<string, string>>;
}

/** Parsed arguments. */
export interface ParsedArgs {
  /** Words that are not options, those after `--` included, in order. */
  positionals: string[];
  /** `--name value` (the last one) and `--flag` (true). */
  flags: Map<string, string | true>;
  /** Every value of a repeated option, in order. */
  lists: Map<string, string[]>;
  /** `-h` or `--help` was given. */
  help: boolean;
}

/** Parses `argv` against `spec`; throws a UsageError for an option the command does not take. */
export function parseArgs(argv: string[], spec: ArgSpec = {}): ParsedArgs {
  const valued = new Set([...(spec.valued ?? []), ...(spec.repeated ?? [])]);
  const known = new Set([...valued, ...(spec.flags ?? []), "help"]);
  const short = { h: "help", ...spec.short };
  const options = Object.fromEntries(
    [...known].map((name) => {
      const letter = Object.entries(short).find(([, long]) => long === name)?.[0];
      return [name, { type: valued.has(name) ? ("string" as const) : ("boolean" as const), ...(letter ? { short: letter } : {}) }];
    }),
  );
  const { tokens } = parseTokens({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const out: ParsedArgs = { positionals: [], flags: new Map(), lists: new Map(), help: false };
  for (const token of tokens) {
    if (token.kind === "positional") out.positionals.push(token.value);
    if (token.kind !== "option") continue;
    if (!known.has(token.name)) throw new UsageError(unknownOption(token.rawName, known));
    if (token.name === "help") out.help = true;
    else if (valued.has(token.name)) {
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value.`);
      out.flags.set(token.name, token.value);
      if (spec.repeated?.includes(token.name)) out.lists.set(token.name, [...(out.lists.get(token.name) ?? []), token.value]);
    } else {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value (got "${token.value}").`);
      out.flags.set(token.name, true);
    }
  }
  return out;
}

/** "unknown option --mdoe (did you mean --mode?)", with a word on prompts that start with a dash. */
function unknownOption(raw: string, known: Set<string>): string {
  const name = raw.replace(/^-+/, "");
  const near = [...known]
    .map((k) => ({ k, d: editDistance(name, k) }))
    .filter(({ k, d }) => d <= Math.max(2, Math.floor(k.length / 3)))
    .sort((a, b) => a.d - b.d)[0];
  const hint = near ? ` (did you mean --${near.k}?)` : "";
  return `unknown option ${raw}${hint}; a word that starts with "-" goes after --`;
}

/** The string value of a flag, if given. */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}

/** Every value of a repeated option (none: empty). */
export function flagValues(args: ParsedArgs, name: string): string[] {
  return args.lists.get(name) ?? [];
}
