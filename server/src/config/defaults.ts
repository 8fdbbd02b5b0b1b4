/**
 * The default of every configuration key, as `configSchema().parse({})` gives it (config/schema.ts
 * declares each key with its default and docs). Written out so that a new session need not build
 * the whole schema to know them; test/unit/config/defaults.test.ts fails, showing the difference,
 * when a default in the schema and this table disagree.
 */
import type { Config } from "./schema.js";

/** The defaults. */
export const DEFAULT_CONFIG: Config = {
  model: "anthropic/claude-sonnet-4-6",
  safety: "ask",
  max_turns: 50,
  max_tokens: 8192,
  thinking_budget: 0,
  remember_approvals: false,
  approval_timeout_s: 600,
  apply_edit_timeout_s: 30,
  mcp_defer_tools: true,
  providers: {},
  retry: {
    max_retries: 4,
    initial_delay_ms: 1000,
    max_delay_ms: 30000,
    stream_idle_timeout_s: 120
  },
  tools: {
    provider_native: true,
    output_budget: 50000,
    profile: "standard",
    computer: false,
    language_service_timeout_s: 5,
    diagnostics_after_edit: true,
    diagnostics_wait_ms: 1500
  },
  subagents: {
    max_concurrent: 3,
    max_turns: 25
  },
  web: {
    allow_hosts: [],
    max_bytes: 5000000,
    timeout_s: 30,
    max_redirects: 5,
    search_backend: "auto",
    search_fallback: false,
    search_api_key_env: "",
    search_url: ""
  },
  browser: {
    executable: ""
  },
  images: {
    model: ""
  },
  exec: {
    sandbox: "auto",
    network: "off",
    allow_hosts: [],
    env_deny: [],
    client_terminal: true,
    background_log_max_mb: 64,
    save_before_commands: "ask"
  },
  compaction: {
    auto_threshold_percent: 85,
    default_context_window: 128000,
    provider_native: false,
    summary_max_tokens: 4096
  },
  memory: {
    index_budget_chars: 4000
  },
  editor: {
    chat_file: false,
    approvals: "auto"
  },
  log: {
    level: "info"
  },
  mcp: {
    discovery: "mcp_tools",
    discover_timeout_s: 20,
    client_metadata_url: "",
    token_store: "keyring"
  },
  knowledge: {
    rules_budget_tokens: 8000,
    skill_catalog_budget_tokens: 1500
  },
  mcp_servers: {},
  policy: {
    lift_floors: [],
    protected_branches: [
      "main",
      "master"
    ],
    classifier_model: "",
    classifier_timeout_s: 30,
    sensitive_paths: []
  }
};
