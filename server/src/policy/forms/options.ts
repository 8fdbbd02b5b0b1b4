/**
 * Command-line options read the way GNU getopt and git's parse-options read them: short options
 * clustered (`-xzf file`, `-Cdir`), long ones with `=value` or the next word, a unique prefix of a
 * long name standing for it (`--to-com=cmd` is `--to-command=cmd`), `--` ending the options.
 */

/** What a program's options look like. */
export interface OptionSpec {
  /** Short option letters that take a value (`f` for `-f FILE`). */
  shortValue: string;
  /** Every long option name the program knows (without `--`), for abbreviations. */
  long: readonly string[];
  /** The long names that take a value as the next word when not given `=value`. */
  longValue: readonly string[];
}

/** One argument: an option (by its full name when the spec knows it) or an operand. */
export type Arg = { kind: "option"; name: string; value?: string } | { kind: "operand"; word: string };

/** The arguments of a command, options resolved. */
export function readOptions(args: readonly string[], spec: OptionSpec): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      out.push(...args.slice(i + 1).map((word): Arg => ({ kind: "operand", word })));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = longName(eq === -1 ? a.slice(2) : a.slice(2, eq), spec.long);
      if (eq !== -1) out.push({ kind: "option", name: `--${name}`, value: a.slice(eq + 1) });
      else if (spec.longValue.includes(name) && i + 1 < args.length) out.push({ kind: "option", name: `--${name}`, value: args[++i]! });
      else out.push({ kind: "option", name: `--${name}` });
    } else if (a.startsWith("-") && a.length > 1) {
      i = shortCluster(a, args, i, spec, out);
    } else out.push({ kind: "operand", word: a });
  }
  return out;
}

/** `-xzf file`: each letter an option; a value letter takes the rest of the word or the next one. */
function shortCluster(a: string, args: readonly string[], i: number, spec: OptionSpec, out: Arg[]): number {
  for (let j = 1; j < a.length; j++) {
    const letter = a[j]!;
    if (!spec.shortValue.includes(letter)) {
      out.push({ kind: "option", name: `-${letter}` });
      continue;
    }
    const rest = a.slice(j + 1);
    if (rest) out.push({ kind: "option", name: `-${letter}`, value: rest });
    else if (i + 1 < args.length) out.push({ kind: "option", name: `-${letter}`, value: args[++i]! });
    else out.push({ kind: "option", name: `-${letter}` });
    break;
  }
  return i;
}

/**
 * The full name `written` stands for: itself when known, else the one known name it begins
 * (a unique prefix); as written when none or several match.
 */
export function longName(written: string, known: readonly string[]): string {
  if (known.includes(written)) return written;
  const matches = known.filter((k) => k.startsWith(written));
  return matches.length === 1 ? matches[0]! : written;
}

/**
 * True when `written` (a long option name, abbreviations allowed) may stand for one of `names`:
 * it is one of them, or a prefix of one that no harmless name of the program equals. Ambiguous
 * abbreviations count: better asked than run.
 */
export function mayBe(written: string, names: readonly string[], harmless: readonly string[] = []): boolean {
  if (harmless.includes(written)) return false;
  return written.length >= 2 && names.some((n) => n.startsWith(written));
}
