/** A small argv parser: positionals, `--flag`, `--key value` and `--key=value`. */

/** Parsed arguments. */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** Parses `argv`; `valued` names the options that take a value. */
export function parseArgs(argv: string[], valued: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    if (eq > 0) flags.set(name, arg.slice(eq + 1));
    else if (valued.includes(name)) {
      const value = argv[i + 1];
      if (value === undefined) throw new Error(`--${name} needs a value.`);
      flags.set(name, value);
      i++;
    } else flags.set(name, true);
  }
  return { positionals, flags };
}

/** The string value of a flag, if given. */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === "string" ? v : undefined;
}
