/**
 * The configuration schema: every key once, with its type, its default and its line of docs.
 * The effective `Config` type, `DEFAULT_CONFIG`, the schema a config file is checked against
 * and the key tables of docs/configuration.md (config/doc.ts) are all derived from it.
 */
import { z } from "zod";
import { POLICY_CLASSES, type PolicyClass } from "../vocabulary/policy.js";

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

/** What the docs say of a key: its type in words, its default as shown, and what it means. */
export interface KeyDoc {
  type: string;
  doc: string;
  /** The default as the docs show it, when not the value itself (e.g. "the API's own"). */
  shown?: string;
}

/** One key: its schema as a file writes it, its default, and its docs. */
function key<T extends z.ZodType>(schema: T, value: z.output<T>, type: string, doc: string) {
  return schema.default(value as never).meta({ type, doc } satisfies KeyDoc);
}

/** A key without a default (provider tables: what is not written is not there). */
function optional<T extends z.ZodType>(schema: T, type: string, doc: string, shown = "none") {
  return schema.optional().meta({ type, doc, shown } satisfies KeyDoc);
}

/** A table of keys; its defaults apply when the table is absent. */
function table<T extends z.ZodRawShape>(shape: T) {
  // prefault, not default: the empty table is parsed, so its keys' own defaults fill it.
  return z.object(shape).strict().prefault({} as never);
}

const providerTable = z
  .object({
    type: optional(z.enum(PROVIDER_TYPES), "string", "`anthropic`, `openai` (Responses API), `openai-compatible` (Chat Completions at any base URL), `gemini`.", "the NAME for built-in names"),
    api_key_env: optional(z.string(), "string", "The environment variable holding the key. Prefer this to `api_key`.", "`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY` / `GOOGLE_API_KEY`"),
    api_key: optional(z.string(), "string", "The key itself. Discouraged: `doctor` warns when a file holding one is readable by others."),
    base_url: optional(z.string().url(), "string", "Where to send requests (a proxy, a local server).", "the API's own; `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`, `GEMINI_BASE_URL`"),
    model: optional(z.string(), "string", "The model used when `model` names only this provider."),
    models: optional(
      z.array(z.string().min(1)),
      "array of strings",
      "The model ids this provider offers: listed by `/model` and `agent/listModels` (Neovim's `:AgentModel` completes them), and, once set, the only ids `model_routing_config`, `/model` and `agent/setModel` accept for it.",
      "any id; completion offers the ids agent-lsp knows prices of for the provider's type",
    ),
    headers: optional(z.record(z.string(), z.string()), "table", "Extra HTTP headers sent with every request."),
    timeout_ms: optional(z.number().int().positive(), "integer", "Request timeout (OpenAI and compatible).", "the SDK's"),
    organization: optional(z.string(), "string", "OpenAI organization."),
    project: optional(z.string(), "string", "OpenAI project."),
    promptCaching: optional(z.boolean(), "boolean", "Anthropic prompt caching.", "`true`"),
  })
  // Other keys reach the SDK as they are (adapter-specific options).
  .catchall(z.unknown());

/** How the model finds deferred MCP tools (docs/mcp.md). */
export const MCP_DISCOVERY_MODES = ["mcp_tools", "tool_search"] as const;
export type McpDiscovery = (typeof MCP_DISCOVERY_MODES)[number];

/** `[mcp_servers.NAME.tools.TOOL]`: one tool of a server, by the RAW name the server gives it. */
const mcpToolTable = z
  .object({
    policy_class: optional(
      z.enum(POLICY_CLASSES as [PolicyClass, ...PolicyClass[]]),
      "string",
      "The tool's class for the safety gate (docs/safety.md): `read_only` runs unasked in every mode, `read_write` unasked in `auto`; the others are asked.",
      "`\"external_api\"`",
    ),
    hidden: optional(z.boolean(), "boolean", "Keep the tool configured but invisible to the model.", "`false`"),
  })
  .strict();

/** How agent-lsp keeps the OAuth tokens of remote MCP servers (docs/mcp.md#sign-in). */
export const TOKEN_STORES = ["keyring", "file"] as const;
export type TokenStoreKind = (typeof TOKEN_STORES)[number];

/** `[mcp_servers.NAME.oauth]`: the OAuth app a user registered for a remote server. */
const mcpOAuthTable = z
  .object({
    client_id: optional(z.string().min(1), "string", "The client id of an OAuth app you registered with the server's authorization server; used before any other way of identifying agent-lsp."),
    client_secret_env: optional(
      z.string().min(1),
      "string",
      "The environment variable holding that app's client secret, for a confidential app. The secret is never written to a file or a log.",
    ),
    callback_port: optional(
      z.number().int().min(1).max(65535),
      "integer",
      "The port of the sign-in redirect `http://127.0.0.1:PORT/callback` (the redirect your app registered).",
      "a free port for each sign-in",
    ),
    scopes: optional(z.array(z.string().min(1)), "array of strings", "The scopes to ask for, replacing the ones the server suggests.", "the server's"),
  })
  .strict();

/**
 * `[mcp_servers.NAME]`: a local (command) or remote (url) MCP server. Every key is optional here,
 * as layers merge key by key; whether the merged table is complete is checked when the servers
 * are read (mcp/specs.ts), where the error can name the server.
 */
const mcpServerTable = z
  .object({
    command: optional(z.string().min(1), "string", "The program of a local (stdio) server."),
    args: optional(z.array(z.string()), "array of strings", "Its arguments.", "`[]`"),
    env: optional(
      z.record(z.string(), z.string()),
      "table of strings",
      "Variables it gets. It starts with `PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL` and `TERM` only, not your whole environment.",
      "`{}`",
    ),
    cwd: optional(z.string().min(1), "string", "Its working folder; relative to the project root.", "the editor's folder"),
    url: optional(z.string().url(), "string", "The address of a remote (Streamable HTTP) server."),
    headers: optional(z.record(z.string(), z.string()), "table of strings", "Headers sent with every request to it.", "`{}`"),
    env_headers: optional(
      z.record(z.string(), z.string()),
      "table of strings",
      "Headers whose value is read from an environment variable: `{ Authorization = \"GITHUB_MCP_AUTH\" }`. Their values never reach the log.",
      "`{}`",
    ),
    enabled: optional(z.boolean(), "boolean", "`false` keeps the server configured but never started.", "`true`"),
    enabled_tools: optional(z.array(z.string()), "array of strings", "Only these tools, by the RAW name the server advertises.", "all"),
    disabled_tools: optional(z.array(z.string()), "array of strings", "Leave these tools out (RAW names).", "`[]`"),
    defer: optional(z.boolean(), "boolean", "`false` advertises this server's tools directly even while `mcp_defer_tools` is on.", "`true`"),
    startup_timeout_s: optional(
      z.number().positive(),
      "number",
      "Seconds from start to listed tools (the `server/discover` fallback included) before the server counts as failed.",
      "`30`",
    ),
    tool_timeout_s: optional(z.number().positive(), "number", "Seconds one call may take; the server's progress notifications restart the clock.", "`120`"),
    tools: optional(z.record(z.string(), mcpToolTable), "table of tables", "Settings of single tools, one `[mcp_servers.NAME.tools.TOOL]` table each (below).", "`{}`"),
    oauth: optional(mcpOAuthTable, "table", "The OAuth app to sign in with, for a remote server that needs one (`[mcp_servers.NAME.oauth]`, below).", "none: agent-lsp registers itself"),
  })
  .strict();

/** One MCP server table as a layer writes it. */
export type McpServerTable = z.output<typeof mcpServerTable>;

/** Every key of the configuration. */
export const configSchema = z
  .object({
    model: key(
      z.string(),
      "anthropic/claude-sonnet-4-6",
      "string",
      "The model, as `NAME/model-id` where NAME is a `[providers.NAME]` table or a built-in provider (`anthropic`, `openai`, `gemini`, `ollama`). A bare id such as `claude-...`, `gpt-...`, `gemini-...` picks the provider by family.",
    ),
    safety: key(z.enum(SAFETY_MODES), "ask", "string", "Default safety mode of new sessions: `read_only`, `plan`, `ask`, `auto`, `full_access` (docs/safety.md)."),
    max_turns: key(z.number().int().positive(), 50, "integer", "Most model calls in one turn before it stops with `max_turns`."),
    max_tokens: key(z.number().int().positive(), 8192, "integer", "Most output tokens per model call."),
    thinking_budget: key(z.number().int().nonnegative(), 0, "integer", "Extended-thinking budget in tokens for models that have it; `0` is off."),
    remember_approvals: key(z.boolean(), false, "boolean", "Keep \"Yes, don't ask again\" rules in `.agent-lsp/approvals.toml` across sessions."),
    approval_timeout_s: key(z.number().positive(), 600, "number", "A permission prompt unanswered this long counts as No."),
    apply_edit_timeout_s: key(
      z.number().positive(),
      30,
      "number",
      "How long the editor may take to answer a `workspace/applyEdit`. After that the request is withdrawn (`$/cancelRequest`) and the model is told that whether the file changed is not known yet; the editor's next report of the file settles it, and the model hears the outcome then.",
    ),
    mcp_defer_tools: key(
      z.boolean(),
      true,
      "boolean",
      "Keep MCP tools out of each request until the model finds and activates them (docs/mcp.md). `false` advertises every tool directly.",
    ),
    providers: z.record(z.string(), providerTable).default({}),
    retry: table({
      max_retries: key(z.number().int().nonnegative(), 4, "integer", "Retries after the first attempt."),
      initial_delay_ms: key(z.number().int().nonnegative(), 1000, "integer", "First backoff delay; doubles each retry, with jitter."),
      max_delay_ms: key(z.number().int().positive(), 30_000, "integer", "Longest backoff delay."),
      // Fractions allowed: tests (and impatient users) want less than a second.
      stream_idle_timeout_s: key(
        z.number().positive(),
        120,
        "number",
        "A model's response that sends nothing at all (no headers, no event, no keep-alive ping) for this many seconds counts as a broken connection: retried as above, else the turn ends with \"the model's stream sent nothing for 120 s\". Fractions allowed.",
      ),
    }),
    tools: table({
      provider_native: key(
        z.boolean(),
        true,
        "boolean",
        "Give models their provider's own tool definitions where one exists: Anthropic's text editor (in place of read_file, write_file, edit_file) and bash (beside execute_command), OpenAI's apply_patch. Each native call is rewritten onto our tool before anything runs. A provider that rejects them gets our schemas for the rest of the session.",
      ),
      output_budget: key(z.number().int().positive(), 50_000, "integer", "Most characters of text one tool result may carry; the middle of a longer one is cut with a note."),
      profile: key(
        z.enum(["standard", "lite"]),
        "standard",
        "string",
        "`standard` offers every tool; `lite` offers the small core set (read, write, SEARCH/REPLACE edit, search, list, execute, ask, plan, checklist, completion) with shorter descriptions, for small local models. docs/tools.md lists each profile's tools.",
      ),
      computer: key(
        z.boolean(),
        false,
        "boolean",
        "Offer the `computer` tool: screenshots, mouse and keyboard of your real screen (Linux X11). Off by default because every screenshot goes to the model's provider. docs/tools.md says what it does and how it is gated. Only from your user config or the editor's settings.",
      ),
      language_service_timeout_s: key(
        z.number().positive().max(120),
        5,
        "number",
        "Seconds the editor's own language servers have to answer one request of the language tools (find_definition, find_references, rename_symbol...; docs/tools.md). A slower answer is a tool result saying so. Fractions allowed; at most 120.",
      ),
      diagnostics_after_edit: key(
        z.boolean(),
        true,
        "boolean",
        "After a change set lands, append the changed files' errors and warnings from the editor's language servers to the tool result (only with an editor that serves `textDocument/diagnostics`; docs/tools.md).",
      ),
      diagnostics_wait_ms: key(
        z.number().int().min(0).max(30_000),
        1500,
        "integer",
        "How long, at most, to wait after a change set lands for the editor's language servers to publish the changed files' diagnostics (at most 30000).",
      ),
    }),
    subagents: table({
      max_concurrent: key(z.number().int().positive(), 3, "integer", "Most subagents (`agent`, `use_subagents`) running at once across the server; the rest wait their turn."),
      max_turns: key(z.number().int().positive(), 25, "integer", "Most model calls in one subagent's run before it stops and returns what it has."),
    }),
    web: table({
      allow_hosts: key(
        z.array(z.string().min(1)),
        [],
        "array of strings",
        "Hosts whose private or local addresses the web tools may reach: `docs.internal`, or `*.corp.example` for every subdomain (not the domain itself). Only from your user config or the editor's settings.",
      ),
      max_bytes: key(z.number().int().positive(), 5_000_000, "integer", "Most bytes of one response body `web_fetch` reads (after decompression); a larger body is refused, not cut."),
      timeout_s: key(z.number().positive(), 30, "number", "Seconds one fetch (or search) may take, redirects included."),
      max_redirects: key(z.number().int().nonnegative(), 5, "integer", "Redirects followed; each new address is checked by the guard again."),
      search_backend: key(
        z.enum(SEARCH_BACKENDS),
        "auto",
        "string",
        "`brave`, `tavily`, `exa`, `searxng`, `duckduckgo` (keyless), or `auto`: the first of Brave, Tavily, Exa whose key is in the environment, else SearXNG when `search_url` is set, else DuckDuckGo.",
      ),
      search_fallback: key(z.boolean(), false, "boolean", "When the configured backend fails hard (an HTTP error, an unreadable answer), search once more with DuckDuckGo and say so in the result."),
      search_api_key_env: key(z.string(), "", "string", "The environment variable holding the backend's key; empty means `BRAVE_API_KEY`, `TAVILY_API_KEY` or `EXA_API_KEY`."),
      search_url: key(
        z.string(),
        "",
        "string",
        "The backend's address: required for `searxng` (your instance, e.g. `https://searx.example/`); for the others it replaces the public API's address (a proxy).",
      ),
    }),
    browser: table({
      executable: key(
        z.string(),
        "",
        "string",
        "The Chromium (or Chrome) `browser_action` drives; empty finds `chromium`, `chromium-browser`, `google-chrome` or `google-chrome-stable` on PATH. Without one the tool is not offered.",
      ),
    }),
    images: table({
      model: key(
        z.string(),
        "",
        "string",
        "The model of `generate_image`, as `NAME/model-id`: an OpenAI image model (`openai/gpt-image-1`) or a Gemini image model (`gemini/gemini-2.5-flash-image`), with that provider's key. Empty leaves the tool out.",
      ),
    }),
    exec: table({
      env_deny: key(z.array(z.string()), [], "array of strings", "Environment variables removed from commands the agent runs (provider keys are always removed)."),
      client_terminal: key(
        z.boolean(),
        true,
        "boolean",
        "Run foreground commands in the client's own terminal when it offers one (ACP clients that declare `terminal`), so the user watches them there. The timeout, the output limit and cancel still apply; the client's terminal has the client's environment, so `env_deny` does not reach it.",
      ),
      save_before_commands: key(
        z.enum(SAVE_BEFORE_COMMANDS),
        "ask",
        "string",
        "Commands read the disk, so before one runs, the open files the agent changed and did not save are saved (through `agent/saveDocuments`, in editors that declare it). `\"ask\"`: the command's approval says so (\"and save 2 files first: a.ts, b.ts\"), and a Yes covers it; where no approval is asked (`full_access`, `auto`, a remembered rule) they are saved and a status line and the result say so. `\"always\"`: saved before every command, said in the result. `\"never\"`: not saved. Where nothing is saved (`\"never\"`, or an editor without `agent/saveDocuments`), the approval and the result name the open files whose agent changes the command will not see.",
      ),
    }),
    compaction: table({
      auto_threshold_percent: key(
        z.number().int().min(1).max(100),
        85,
        "integer",
        "When the next model call would fill more than this percentage of the model's context window, the older history is first summarised into a checkpoint (nothing is deleted: `context_archive` reads it back).",
      ),
      default_context_window: key(z.number().int().positive(), 128_000, "integer", "Context window in tokens of models the built-in table does not know."),
      provider_native: key(
        z.boolean(),
        false,
        "boolean",
        "On Anthropic, hand the automatic trigger to the provider's server-side compaction (each request asks for it at the same threshold; its summary becomes the checkpoint) instead of summarising here. `compact_context` and `/compact` still run agent-lsp's own compaction. Other providers keep the automatic trigger.",
      ),
      summary_max_tokens: key(z.number().int().positive(), 4096, "integer", "Most tokens the model may write for a compaction's summary."),
    }),
    memory: table({
      index_budget_chars: key(
        z.number().int().nonnegative(),
        4000,
        "integer",
        "Most characters of the memory index (each memory file's name and first line) put into the system prompt of a new session; 0 leaves it out.",
      ),
    }),
    editor: table({
      chat_file: key(
        z.boolean(),
        false,
        "boolean",
        "Use the chat file `.agent-lsp/chat.md` (answers streamed into it, approvals and questions as code actions there) even when the editor declares the agent protocol. Editors that do not declare it (Helix, stock eglot) always get it (docs/helix.md).",
      ),
    }),
    log: table({
      level: key(z.enum(["error", "warn", "info", "debug"]), "info", "string", "`error`, `warn`, `info` or `debug`. Logs go to stderr and `.agent-lsp/logs/agent-lsp.log`, with keys redacted."),
    }),
    mcp: table({
      discovery: key(
        z.enum(MCP_DISCOVERY_MODES),
        "mcp_tools",
        "string",
        "How the model finds deferred tools: `mcp_tools` (one tool to query, activate, read resources and complete template arguments) or `tool_search` (`tool_search`, `tool_describe`, `tool_call`).",
      ),
      // Fractions allowed: tests want the fallback to initialize in well under a second.
      discover_timeout_s: key(
        z.number().positive(),
        20,
        "number",
        "A local server that leaves `server/discover` unanswered this long speaks 2025-11-25: the `initialize` handshake runs instead. Fractions allowed.",
      ),
      client_metadata_url: key(
        z.union([z.literal(""), z.string().url().startsWith("https://")]),
        "",
        "string",
        "The https address of a Client ID Metadata Document describing agent-lsp, used as its client id with authorization servers that support such documents (after `[mcp_servers.NAME.oauth] client_id`, before Dynamic Client Registration). Empty: not used.",
      ),
      token_store: key(
        z.enum(TOKEN_STORES),
        "keyring",
        "string",
        "Where OAuth tokens of remote servers are kept: `keyring` (the OS keyring: Secret Service, macOS Keychain, Windows Credential Manager) or `file` (a file only you can read, in your state folder, for a machine without a keyring service).",
      ),
    }),
    knowledge: table({
      rules_budget_tokens: key(
        z.number().int().nonnegative(),
        8000,
        "integer",
        "Most tokens (estimated, four characters each) the rule files (AGENTS.md, CLAUDE.md, `.agent-lsp/rules/*.md`) take in the system prompt; later files are cut first, with a note (docs/skills.md).",
      ),
      skill_catalog_budget_tokens: key(
        z.number().int().nonnegative(),
        1500,
        "integer",
        "Most tokens the skill catalog (one line per skill: name and description) takes in the system prompt; skills past it are counted, and `skill_list` names them all.",
      ),
    }),
    mcp_servers: z.record(z.string(), mcpServerTable).default({}),
    policy: table({
      lift_floors: key(
        z.array(z.enum(FLOOR_NAMES)),
        [],
        "array of strings",
        "Floors to lift, from `rm_root` (rm -r of `/`, the home folder or the project), `disk_format` (mkfs, wipefs, dd/redirects onto a disk device), `fork_bomb`, `force_push_protected` (`git push --force` or `+ref` to a protected branch). Every floor holds in every mode, `full_access` included, until named here.",
      ),
      protected_branches: key(
        z.array(z.string().min(1)),
        ["main", "master"],
        "array of strings",
        "Branches a forced push may not reach; `*` matches any characters (`\"release/*\"`). Replaces the default list, so repeat `main` and `master` if you add to it.",
      ),
      classifier_model: key(z.string(), "", "string", "The model of the `auto` mode safety check, as `NAME/model-id` (e.g. a cheaper one); empty uses the session's own model."),
      classifier_timeout_s: key(
        z.number().positive(),
        30,
        "number",
        "Seconds the safety check may take; after that (or on any error, or an unreadable answer) the action is asked as in `ask` mode.",
      ),
      sensitive_paths: key(
        z.array(z.string().min(1)),
        [],
        "array of strings",
        "More sensitive locations (absolute, or `~/...`), added to the built-in list of docs/safety.md: always asked, never remembered. A project file can add to the list, never shorten it.",
      ),
    }),
  })
  .strict();

/** A provider table after merging. */
export type ProviderConfig = z.output<typeof providerTable>;

/** The effective configuration: every key present. */
export type Config = z.output<typeof configSchema> & {
  /**
   * Where each provider's `api_key` was written (a file path or "initializationOptions"), so an
   * authentication error can say which key to fix. Set by loadConfig; not a config key.
   */
  keySources?: Record<string, string>;
  /**
   * Servers whose launch (command, args, env, cwd, url, headers) a file inside the project set,
   * by name, with that file: they start only once the user approved their exact command line.
   * Set by loadConfig; not a config key.
   */
  mcpProjectServers?: Record<string, string>;
};

/** Every key optional, at any depth: what one layer (a file, initializationOptions) may hold. */
export type ConfigFile = {
  [K in keyof Config]?: K extends "providers" | "mcp_servers" ? Config[K] : Config[K] extends unknown[] ? Config[K] : Config[K] extends object ? Partial<Config[K]> : Config[K];
};

/** The defaults, derived from the schema. */
export const DEFAULT_CONFIG: Config = configSchema.parse({});

/** The schema one layer is checked against: the same keys, none required, no defaults filled in. */
export const configFileSchema = withoutDefaults(configSchema) as z.ZodType<ConfigFile>;

/** A schema with every default removed (a layer's missing key must not override an earlier one). */
function withoutDefaults(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) return withoutDefaults(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodObject && schema !== providerTable && schema !== mcpServerTable) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, withoutDefaults(v)]));
    return z.object(shape).strict();
  }
  return schema;
}
