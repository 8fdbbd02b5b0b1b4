/**
 * The environment commands run with: the server's own, minus secrets. A command the model runs
 * (or a script it writes) must not be able to read the provider keys the agent itself uses.
 */

/** Provider keys that never reach a command, whatever the config says. */
const PROVIDER_KEY_NAMES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
];

/**
 * Copy of `base` without the provider keys and without every name in `deny`.
 * A deny entry is an exact variable name or a pattern with `*` wildcards (`AWS_*`). Names
 * compare case-insensitively on Windows, where the environment itself is case-insensitive.
 */
export function commandEnv(base: NodeJS.ProcessEnv, deny: readonly string[] = []): Record<string, string> {
  const isDenied = denyMatcher([...PROVIDER_KEY_NAMES, ...deny]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !isDenied(name)) env[name] = value;
  }
  return env;
}

/** A predicate that is true for the variable names `deny` removes. */
export function denyMatcher(deny: readonly string[]): (name: string) => boolean {
  const flags = process.platform === "win32" ? "i" : "";
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of deny) {
    const name = entry.trim();
    if (!name) continue;
    if (name.includes("*")) {
      const body = name.split("*").map(escapeRegExp).join(".*");
      patterns.push(new RegExp(`^${body}$`, flags));
    } else {
      exact.add(flags ? name.toUpperCase() : name);
    }
  }
  return (name) => exact.has(flags ? name.toUpperCase() : name) || patterns.some((p) => p.test(name));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
