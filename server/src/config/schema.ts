/**
 * The configuration schema: every key, its type and its default, in one place.
 * docs/configuration.md lists the same keys; keep them in step.
 */
import { z } from "zod";

/** Safety modes (docs/safety.md). */
export const SAFETY_MODES = ["read_only", "plan", "ask", "auto", "full_access"] as const;
export type SafetyMode = (typeof SAFETY_MODES)[number];

/**
 * The destructive-command floors that hold in every safety mode (docs/safety.md). Config
 * `[policy] lift_floors` may name some of them to lift them.
 */
export const FLOOR_NAMES = ["rm_root", "disk_format", "fork_bomb", "force_push_protected"] as const;
export type FloorName = (typeof FLOOR_NAMES)[number];

/** Wire APIs a provider table may name. */
export const PROVIDER_TYPES = ["anthropic", "openai", "openai-compatible", "gemini"] as const;

const providerTable = z
  .object({
    type: z.enum(PROVIDER_TYPES).optional(),
    api_key: z.string().optional(),
    api_key_env: z.string().optional(),
    base_url: z.string().url().optional(),
    /** Default model id for this provider when `model` names only the provider. */
    model: z.string().optional(),
  })
  .catchall(z.unknown());

/** The config file shape (all keys optional in a file; defaults applied after merging). */
export const configFileSchema = z
  .object({
    model: z.string().optional(),
    safety: z.enum(SAFETY_MODES).optional(),
    max_turns: z.number().int().positive().optional(),
    max_tokens: z.number().int().positive().optional(),
    thinking_budget: z.number().int().nonnegative().optional(),
    remember_approvals: z.boolean().optional(),
    approval_timeout_s: z.number().positive().optional(),
    providers: z.record(z.string(), providerTable).optional(),
    retry: z
      .object({
        max_retries: z.number().int().nonnegative().optional(),
        initial_delay_ms: z.number().int().nonnegative().optional(),
        max_delay_ms: z.number().int().positive().optional(),
        /** Fractions allowed: tests (and impatient users) want less than a second. */
        stream_idle_timeout_s: z.number().positive().optional(),
      })
      .strict()
      .optional(),
    tools: z
      .object({
        provider_native: z.boolean().optional(),
        output_budget: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    exec: z
      .object({
        env_deny: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    log: z
      .object({
        level: z.enum(["error", "warn", "info", "debug"]).optional(),
      })
      .strict()
      .optional(),
    policy: z
      .object({
        lift_floors: z.array(z.enum(FLOOR_NAMES)).optional(),
        protected_branches: z.array(z.string().min(1)).optional(),
        classifier_model: z.string().optional(),
        classifier_timeout_s: z.number().positive().optional(),
        sensitive_paths: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** One parsed config layer. */
export type ConfigFile = z.infer<typeof configFileSchema>;

/** A provider table after merging. */
export type ProviderConfig = z.infer<typeof providerTable>;

/** The effective configuration: every key present. */
export interface Config {
  model: string;
  safety: SafetyMode;
  max_turns: number;
  max_tokens: number;
  thinking_budget: number;
  remember_approvals: boolean;
  approval_timeout_s: number;
  providers: Record<string, ProviderConfig>;
  retry: {
    max_retries: number;
    initial_delay_ms: number;
    max_delay_ms: number;
    /** Seconds a model's stream may send nothing (not even a keep-alive ping) before it counts as broken. */
    stream_idle_timeout_s: number;
  };
  tools: { provider_native: boolean; output_budget: number };
  exec: { env_deny: string[] };
  log: { level: "error" | "warn" | "info" | "debug" };
  policy: {
    /** Floors to lift (none by default: every floor holds). */
    lift_floors: FloorName[];
    /** Branches a forced push may not reach (a trailing `*` matches any rest). */
    protected_branches: string[];
    /** Model for the auto-mode classifier; "" means the session's own model. */
    classifier_model: string;
    /** Seconds the classifier may take before its answer counts as "ask". */
    classifier_timeout_s: number;
    /** More sensitive places (absolute or `~/...`), added to the built-in list (docs/safety.md). */
    sensitive_paths: string[];
  };
  /**
   * Where each provider's `api_key` was written (a file path or "initializationOptions"), so an
   * authentication error can say which key to fix. Set by loadConfig; not a config key.
   */
  keySources?: Record<string, string>;
}

/** The defaults, in one place. */
export const DEFAULT_CONFIG: Config = {
  model: "anthropic/claude-sonnet-4-6",
  safety: "ask",
  max_turns: 50,
  max_tokens: 8192,
  thinking_budget: 0,
  remember_approvals: false,
  approval_timeout_s: 600,
  providers: {},
  retry: { max_retries: 4, initial_delay_ms: 1000, max_delay_ms: 30_000, stream_idle_timeout_s: 120 },
  tools: { provider_native: true, output_budget: 50_000 },
  exec: { env_deny: [] },
  log: { level: "info" },
  policy: { lift_floors: [], protected_branches: ["main", "master"], classifier_model: "", classifier_timeout_s: 30, sensitive_paths: [] },
};
