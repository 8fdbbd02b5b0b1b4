/** The closed sets of values config keys take (modes, floors, backends...), shared by the schema's sections and the code that reads them. */

/** Safety modes (docs/safety.md). */
export const SAFETY_MODES = ["read_only", "plan", "ask", "auto", "full_access"] as const;
export type SafetyMode = (typeof SAFETY_MODES)[number];

/**
 * The destructive-command floors that hold in every safety mode (docs/safety.md). Config
 * `[policy] lift_floors` may name some of them to lift them.
 */
export const FLOOR_NAMES = ["rm_root", "disk_format", "fork_bomb", "force_push_protected"] as const;
export type FloorName = (typeof FLOOR_NAMES)[number];

/**
 * Whether buffers the agent changed and did not save are saved before a command runs (commands
 * read the disk): as part of the command's approval, always, or never.
 */
export const SAVE_BEFORE_COMMANDS = ["ask", "always", "never"] as const;
export type SaveBeforeCommands = (typeof SAVE_BEFORE_COMMANDS)[number];

/** Web search backends (docs/tools.md); `auto` takes the first one set up, else the keyless default. */
export const SEARCH_BACKENDS = ["auto", "brave", "tavily", "exa", "searxng", "duckduckgo"] as const;
export type SearchBackend = (typeof SEARCH_BACKENDS)[number];

/** Wire APIs a provider table may name. */
export const PROVIDER_TYPES = ["anthropic", "openai", "openai-compatible", "gemini"] as const;

/** `[exec] sandbox`: sandbox commands wherever it works, refuse to run them without it, or never (docs/safety.md). */
export const SANDBOX_MODES = ["auto", "required", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** `[exec] network`: what a sandboxed command may reach: nothing, or the hosts of `[exec] allow_hosts`. */
export const EXEC_NETWORKS = ["off", "allow_hosts"] as const;
export type ExecNetwork = (typeof EXEC_NETWORKS)[number];
