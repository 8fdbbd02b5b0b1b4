/** `[mcp_servers.NAME]` and the tables inside it: the MCP servers a layer configures (docs/mcp.md). */
import { z } from "zod";
import { POLICY_CLASSES, type PolicyClass } from "../vocabulary/policy.js";
import { once, optional } from "./schema-keys.js";

/** How the model finds deferred MCP tools (docs/mcp.md). */
export const MCP_DISCOVERY_MODES = ["mcp_tools", "tool_search"] as const;
export type McpDiscovery = (typeof MCP_DISCOVERY_MODES)[number];

/** `[mcp_servers.NAME.tools.TOOL]`: one tool of a server, by the RAW name the server gives it. */
export const mcpToolTable = once(() =>
  z
    .object({
      policy_class: optional(
        z.enum(POLICY_CLASSES as [PolicyClass, ...PolicyClass[]]),
        "string",
        "The tool's class for the safety gate (docs/safety.md): `read_only` runs unasked in every mode, `read_write` unasked in `auto`; the others are asked.",
        "`\"external_api\"`",
      ),
      hidden: optional(z.boolean(), "boolean", "Keep the tool configured but invisible to the model.", "`false`"),
    })
    .strict());

/** How agent-lsp keeps the OAuth tokens of remote MCP servers (docs/mcp.md#sign-in). */
export const TOKEN_STORES = ["keyring", "file"] as const;
export type TokenStoreKind = (typeof TOKEN_STORES)[number];

/** `[mcp_servers.NAME.oauth]`: the OAuth app a user registered for a remote server. */
export const mcpOAuthTable = once(() =>
  z
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
    .strict());

/**
 * `[mcp_servers.NAME]`: a local (command) or remote (url) MCP server. Every key is optional here,
 * as layers merge key by key; whether the merged table is complete is checked when the servers
 * are read (mcp/specs.ts), where the error can name the server.
 */
export const mcpServerTable = once(() =>
  z
    .object({
      command: optional(z.string().min(1), "string", "The program of a local (stdio) server."),
      args: optional(z.array(z.string()), "array of strings", "Its arguments.", "`[]`"),
      env: optional(
        z.record(z.string(), z.string()),
        "table of strings",
        "Variables it gets. It starts with `PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL` and `TERM` only, not your whole environment.",
        "`{}`",
      ),
      env_vars: optional(
        z.array(z.string().min(1)),
        "array of strings",
        "Names of variables it gets from agent-lsp's own environment, as they are (Codex's `env_vars`); `env` wins a clash.",
        "`[]`",
      ),
      cwd: optional(z.string().min(1), "string", "Its working folder; relative to the project root. Without it a server starts in the project root (as Claude Code starts them), not in the folder the editor was started from, so relative `args` mean the same wherever you open the project.", "the project root"),
      url: optional(z.string().url(), "string", "The address of a remote (Streamable HTTP) server."),
      headers: optional(z.record(z.string(), z.string()), "table of strings", "Headers sent with every request to it.", "`{}`"),
      env_headers: optional(
        z.record(z.string(), z.string()),
        "table of strings",
        "Headers whose value is read from an environment variable: `{ Authorization = \"GITHUB_MCP_AUTH\" }`. Their values never reach the log.",
        "`{}`",
      ),
      bearer_token_env_var: optional(
        z.string().min(1),
        "string",
        "The environment variable holding a token sent as `Authorization: Bearer TOKEN` (Codex's key). Its value never reaches the log.",
      ),
      enabled: optional(z.boolean(), "boolean", "`false` keeps the server configured but never started.", "`true`"),
      enabled_tools: optional(z.array(z.string()), "array of strings", "Only these tools, by the RAW name the server advertises.", "all"),
      disabled_tools: optional(z.array(z.string()), "array of strings", "Leave these tools out (RAW names).", "`[]`"),
      defer: optional(z.boolean(), "boolean", "`false` advertises this server's tools directly even while `mcp_defer_tools` is on.", "`true`"),
      sandbox: optional(
        z.boolean(),
        "boolean",
        "`true` starts this local server in the commands' sandbox (docs/safety.md#the-sandbox): it may write only in the project and a private /tmp, cannot read credentials, and reaches the network only as `[exec] network` allows. `[exec] sandbox` applies (`required`: it does not start without the sandbox). A project may set it, never unset yours.",
        "`false`",
      ),
      startup_timeout_s: optional(
        z.number().positive(),
        "number",
        "Seconds from start to listed tools (the `server/discover` fallback included) before the server counts as failed.",
        "`30`",
      ),
      tool_timeout_s: optional(z.number().positive(), "number", "Seconds one call may take; the server's progress notifications restart the clock.", "`120`"),
      tools: optional(z.record(z.string(), mcpToolTable()), "table of tables", "Settings of single tools, one `[mcp_servers.NAME.tools.TOOL]` table each (below).", "`{}`"),
      oauth: optional(mcpOAuthTable(), "table", "The OAuth app to sign in with, for a remote server that needs one (`[mcp_servers.NAME.oauth]`, below).", "none: agent-lsp registers itself"),
    })
    .strict());

/** One MCP server table as a layer writes it. */
export type McpServerTable = z.output<ReturnType<typeof mcpServerTable>>;
