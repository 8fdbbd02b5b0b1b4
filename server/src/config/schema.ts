/**
 * The configuration schema: every key once, with its type, its default and its line of docs.
 * The effective `Config` type, `DEFAULT_CONFIG`, the schema a config file is checked against
 * and the key tables of docs/configuration.md (config/doc.ts) are all derived from it.
 */
import { z } from "zod";
import { FLOOR_NAMES, PROVIDER_TYPES, SAFETY_MODES } from "./schema-enums.js";
import { key, once, optional } from "./schema-keys.js";
import { mcpServerTable } from "./schema-mcp-servers.js";
import { editorTable, logTable, policyTable } from "./schema-editor.js";
import { browserTable, execTable, imagesTable, mcpTable, webTable } from "./schema-outside.js";
import { compactionTable, knowledgeTable, memoryTable, retryTable, subagentsTable, toolsTable } from "./schema-sessions.js";

export * from "./schema-enums.js";
export { MCP_DISCOVERY_MODES, TOKEN_STORES, type McpDiscovery, type McpServerTable, type TokenStoreKind } from "./schema-mcp-servers.js";
export type { KeyDoc } from "./schema-keys.js";

const providerTable = once(() =>
  z
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
    .catchall(z.unknown()));

/**
 * Every key of the configuration, each built the first time it is needed: a config layer is
 * checked against the keys it sets, so a new session builds the tables of the keys its files
 * write, not the whole schema (the key tables of the docs ask for all of it: configSchema).
 */
const sections = {
  model: () => key(
    z.string(),
    "anthropic/claude-sonnet-4-6",
    "string",
    "The model, as `NAME/model-id` where NAME is a `[providers.NAME]` table or a built-in provider (`anthropic`, `openai`, `gemini`, `ollama`). A bare id such as `claude-...`, `gpt-...`, `gemini-...` picks the provider by family.",
  ),
  safety: () => key(z.enum(SAFETY_MODES), "ask", "string", "Default safety mode of new sessions: `read_only`, `plan`, `ask`, `auto`, `full_access` (docs/safety.md)."),
  max_turns: () => key(z.number().int().positive(), 50, "integer", "Most model calls in one turn before it stops with `max_turns`."),
  max_tokens: () => key(z.number().int().positive(), 8192, "integer", "Most output tokens per model call."),
  thinking_budget: () => key(z.number().int().nonnegative(), 0, "integer", "Extended-thinking budget in tokens for models that have it; `0` is off."),
  remember_approvals: () => key(z.boolean(), false, "boolean", "Keep \"Yes, don't ask again\" rules in `.agent-lsp/approvals.toml` across sessions."),
  approval_timeout_s: () => key(z.number().positive(), 600, "number", "A permission prompt unanswered this long counts as No."),
  apply_edit_timeout_s: () => key(
    z.number().positive(),
    30,
    "number",
    "How long the editor may take to answer a `workspace/applyEdit`. After that the request is withdrawn (`$/cancelRequest`) and the model is told that whether the file changed is not known yet; the editor's next report of the file settles it, and the model hears the outcome then. The chat file says the editor takes no edit of it after this long (at most 10 s).",
  ),
  mcp_defer_tools: () => key(
    z.boolean(),
    true,
    "boolean",
    "Keep MCP tools out of each request until the model finds and activates them (docs/mcp.md). `false` advertises every tool directly.",
  ),
  providers: () => z.record(z.string(), providerTable()).default({}),
  retry: retryTable,
  tools: toolsTable,
  subagents: subagentsTable,
  web: webTable,
  browser: browserTable,
  images: imagesTable,
  exec: execTable,
  compaction: compactionTable,
  memory: memoryTable,
  editor: editorTable,
  log: logTable,
  mcp: mcpTable,
  knowledge: knowledgeTable,
  mcp_servers: () => z.record(z.string(), mcpServerTable()).default({}),
  policy: policyTable,
};

type Sections = typeof sections;
type Shape = { [K in keyof Sections]: ReturnType<Sections[K]> };
const SECTION_KEYS = Object.keys(sections) as (keyof Sections)[];

const section = <K extends keyof Sections>(name: K): Shape[K] => (built[name] ??= sections[name]() as never) as Shape[K];
const built: Partial<Shape> = {};

/** The whole schema (every key, with defaults). */
export const configSchema = once(() => z.object(Object.fromEntries(SECTION_KEYS.map((k) => [k, section(k)])) as Shape).strict());

/** A provider table after merging. */
export type ProviderConfig = z.output<ReturnType<typeof providerTable>>;

/** The effective configuration: every key present. */
export type Config = z.output<ReturnType<typeof configSchema>> & {
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
  /**
   * Of those, the ones that take the place of a server of the same name the user defined (in
   * their config file, mcp.json or editor settings), with where the user's is. Set by loadConfig.
   */
  mcpReplacedServers?: Record<string, string>;
};

/** Every key optional, at any depth: what one layer (a file, initializationOptions) may hold. */
export type ConfigFile = {
  [K in keyof Config]?: K extends "providers" | "mcp_servers" ? Config[K] : Config[K] extends unknown[] ? Config[K] : Config[K] extends object ? Partial<Config[K]> : Config[K];
};

/**
 * The defaults: what `configSchema().parse({})` gives, written out in config/defaults.ts so that a
 * new session need not build the whole schema to know them (a test keeps the two equal).
 */
export { DEFAULT_CONFIG } from "./defaults.js";

/**
 * The schema a layer setting `keys` is checked against: those keys, none required, no defaults
 * filled in, and any key the configuration does not have unknown. Only the tables of `keys` are
 * built.
 */
export function configFileSchema(keys: readonly string[]): z.ZodType<ConfigFile> {
  const shape: Record<string, z.ZodType> = {};
  for (const name of SECTION_KEYS) if (keys.includes(name)) shape[name] = (fileSections[name] ??= withoutDefaults(section(name)));
  return z.object(shape).strict() as unknown as z.ZodType<ConfigFile>;
}
const fileSections: Partial<Record<keyof Sections, z.ZodType>> = {};

/**
 * A schema with every default removed (a layer's missing key must not override an earlier one).
 * The tables of a record (a provider, an MCP server) have no defaults and are kept as they are.
 */
function withoutDefaults(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) return withoutDefaults(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, withoutDefaults(v)]));
    return z.object(shape).strict();
  }
  return schema;
}

/** `[editor] approvals`: where a client without agent-lsp's own review is asked. */
export type EditorApprovals = Config["editor"]["approvals"];
