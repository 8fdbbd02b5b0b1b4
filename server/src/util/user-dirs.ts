/**
 * The user's own agent-lsp folders, outside every project: the config folder (settings the user
 * wrote) and the state folder (what agent-lsp keeps for the user, such as the key that signs
 * remembered approvals). XDG variables are respected.
 */
import os from "node:os";
import path from "node:path";

/** `$XDG_CONFIG_HOME/agent-lsp`, else `~/.config/agent-lsp`. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homeOf(env), ".config");
  return path.join(base, "agent-lsp");
}

/** `$XDG_STATE_HOME/agent-lsp`, else `~/.local/state/agent-lsp`. */
export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || path.join(homeOf(env), ".local", "state");
  return path.join(base, "agent-lsp");
}

/** The home folder as the environment names it (HOME first, so tests and sandboxes can move it). */
export function homeOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME || os.homedir();
}

/** `$XDG_DATA_HOME/agent-lsp`, else `~/.local/share/agent-lsp`: what the user keeps with agent-lsp (the user memory store). */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || path.join(homeOf(env), ".local", "share");
  return path.join(base, "agent-lsp");
}
