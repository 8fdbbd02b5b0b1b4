/**
 * Where agent-lsp keeps its own settings and state: the project's `.agent-lsp/` folder (config,
 * remembered approvals, checkpoints, logs), the user's config folder and the user's state folder.
 * Whatever reaches them could grant the agent permissions (a `[[program]]` line in approvals.toml,
 * `safety = "full_access"` in config.toml), so the gate asks about it every time and never lets a
 * rule or the safety check decide.
 */
import path from "node:path";
import { userConfigDir, userStateDir } from "../config/user-dirs.js";
import { isInside, realpathOfNearest } from "../workspace/paths.js";
import { STATE_DIR } from "../workspace/state-dir.js";
import type { Scope } from "./rules.js";

/**
 * The folders of agent-lsp's settings and state for a project: `<root>/.agent-lsp`, the user's
 * config folder (`$XDG_CONFIG_HOME/agent-lsp`, else `~/.config/agent-lsp`) and the user's state
 * folder (`$XDG_STATE_HOME/agent-lsp`, else `~/.local/state/agent-lsp`). Absolute, symlinks not
 * resolved (see `settingsPlaces` for both forms).
 */
export function agentSettingsPlaces(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return [path.join(root, STATE_DIR), userConfigDir(env), userStateDir(env)];
}

/** The settings folders by the names they are given and by where they really are. */
export interface SettingsPlaces {
  named: readonly string[];
  real: readonly string[];
}

/** Both forms of each folder: a `~/.config` that links to a dotfiles checkout is still the config. */
export async function settingsPlaces(named: readonly string[]): Promise<SettingsPlaces> {
  return { named, real: await Promise.all(named.map((p) => realpathOfNearest(p))) };
}

/** True when a path (by its name or its real location) lies in one of the settings folders. */
export function inAgentSettings(places: SettingsPlaces, abs: string, real: string): boolean {
  return places.named.some((p) => isInside(p, abs)) || places.real.some((p) => isInside(p, real));
}

/**
 * Text that names a settings folder anywhere in a word: a `.agent-lsp` path segment, an
 * `agent-lsp` segment under `.config`, `.local/state` or an XDG variable, or one of the folders
 * spelled out. This catches what cannot be resolved as a path (`$DIR/.agent-lsp/x`,
 * `-o.agent-lsp/x`, a sed script `w .agent-lsp/x`, the line given to `bash -c`).
 */
export function namesAgentSettings(places: SettingsPlaces, word: string): boolean {
  if (SETTINGS_NAME.test(word)) return true;
  return [...places.named, ...places.real].some((p) => containsPath(word, p));
}

const SETTINGS_NAME =
  /(^|[^\w.-])\.agent-lsp(?![\w.-])|(\.config|\.local\/state|XDG_CONFIG_HOME\}?|XDG_STATE_HOME\}?)\/agent-lsp(?![\w.-])/;

/** `word` contains the folder `dir` as a whole path (not `/x/agent-lsp-old` for `/x/agent-lsp`). */
function containsPath(word: string, dir: string): boolean {
  for (let i = word.indexOf(dir); i !== -1; i = word.indexOf(dir, i + 1)) {
    const after = word[i + dir.length];
    if (after === undefined || !/[\w.-]/.test(after)) return true;
  }
  return false;
}

/** Why a command reaching the settings is asked, shown in the prompt and the status update. */
export const SETTINGS_COMMAND_REASON =
  "commands that reach agent-lsp's own settings or state (.agent-lsp/, its config or state folder) are asked every time";

/** Why a file change in the settings is asked. */
export const SETTINGS_CHANGE_REASON = "changes to agent-lsp's own settings are always asked";

/**
 * The scope of an action on agent-lsp's settings: a sensitive place (see policy/sensitive.ts),
 * asked every time, never remembered, never left to the safety check; `headline` opens the
 * prompt. Like the user's config and state folders, the project's settings count as credentials.
 */
export function settingsScope(unremembered: string, headline: string, place: string): Scope {
  return { unremembered, autoAllowed: false, sensitive: { headline, kind: "credential", path: place } };
}
