/**
 * The containment marker: every command the agent starts gets `AGENT_LSP_PROC=<owner>:<id>` in
 * its environment, and every process it starts inherits it, including those that leave the
 * command's process group or session (`setsid`, double forks, daemons). A stop finds them all
 * again by reading /proc/<pid>/environ, however far they wandered from the group.
 *
 * `<owner>` is `<server pid>.<n>`: the n-th process manager of that server process (there is
 * one per server; tests make several). An agent-lsp started inside a command (a nested agent,
 * or this project's own tests) appends its commands' tokens to the value it inherited, separated
 * by spaces, so stopping the outer command still reaches what the inner one started.
 */

/** The environment variable that carries the marker. */
export const MARKER_VAR = "AGENT_LSP_PROC";

let ownersCreated = 0;

/** The marker owner of one process manager; it makes each command's token. */
export class MarkerOwner {
  /** `<pid>.<n>`: unique among the live owners of this machine's pid namespace. */
  readonly id: string;

  constructor(pid = process.pid) {
    this.id = `${pid}.${++ownersCreated}`;
  }

  /** The token of the command `commandId` (such as `fg-3` or `bg-1234`). */
  token(commandId: string): string {
    return `${this.id}:${commandId}`;
  }

  /** Whether a marker value carries a token of this owner (any of its commands). */
  owns(value: string): boolean {
    const prefix = `${this.id}:`;
    return value.split(" ").some((t) => t.startsWith(prefix));
  }
}

/** Whether a marker value carries exactly `token` (one command). */
export function carriesToken(value: string, token: string): boolean {
  return value.split(" ").includes(token);
}

/**
 * `env` with the command's token added to the marker: appended to an inherited one (a nested
 * agent), set otherwise. Changes `env` in place and returns it.
 */
export function markEnv(env: Record<string, string>, token: string): Record<string, string> {
  const inherited = env[MARKER_VAR]?.trim();
  env[MARKER_VAR] = inherited ? `${inherited} ${token}` : token;
  return env;
}
