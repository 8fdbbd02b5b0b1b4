/**
 * Where `mcp add`, `add-json` and `remove` write: `--scope user|local|project` (`-s`), as Claude
 * Code spells it, or the older `--project`. OAuth scopes are `--oauth-scope`: `--scope read` is a
 * usage error that says so, so a pasted `claude mcp add -s user ...` line works and an old
 * `mcp add --scope repo` line is not taken for a config scope.
 */
import { flagValue, UsageError, type ParsedArgs } from "./args.js";

/** The config scopes, Claude Code's names. */
export const CONFIG_SCOPES = ["user", "local", "project"] as const;

/** Where a server is written: the user's files or the project's. */
export interface ConfigScope {
  project: boolean;
  /** A sentence for the user when the scope is written somewhere they might not expect. */
  note?: string;
}

/**
 * The scope `--scope`/`-s` or `--project` name; the user's files by default. `local` (Claude
 * Code's private-to-this-project scope) has no file of its own here: the project's config is
 * shared with the team, so a private server goes to the user's files, and the note says so.
 */
export function configScope(args: ParsedArgs): ConfigScope {
  const scope = flagValue(args, "scope");
  const project = args.flags.has("project");
  if (scope === undefined) return { project };
  if (!(CONFIG_SCOPES as readonly string[]).includes(scope)) {
    throw new UsageError(`--scope (-s) takes user, local or project (where the server is written), got "${scope}"; OAuth scopes are --oauth-scope ${scope}.`);
  }
  if (project && scope !== "project") throw new UsageError(`--project and --scope ${scope} disagree: give one of them.`);
  if (scope === "local") {
    return { project: false, note: "agent-lsp has no private per-project servers (Claude Code's local scope): it is in your user config, for every project." };
  }
  return { project: scope === "project" };
}
