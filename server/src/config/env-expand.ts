/**
 * `${VAR}` and `${VAR:-default}` in the `mcpServers` JSON files, expanded as Claude Code does, so a
 * pasted `.mcp.json` with `"Authorization": "Bearer ${TOKEN}"` sends the token, never the literal.
 */

const PATTERN = /\$\{([^}:]+)(?::-([^}]*))?\}/g;

/**
 * One string with its references replaced from `env`. A variable that is unset (or empty) takes its
 * default; one without a default is added to `missing` and left as written.
 */
export function expandEnvRefs(text: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
  return text.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return whole;
  });
}

/** Every value of a string record expanded (keys are names and stay as written). */
export function expandRecord(record: Record<string, string>, env: NodeJS.ProcessEnv, missing: Set<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expandEnvRefs(v, env, missing)]));
}
