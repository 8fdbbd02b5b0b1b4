/** The tables about the outside world: the web, the browser, images, commands and the MCP client. */
import { z } from "zod";
import { key, optional, table } from "./schema-keys.js";
import { EXEC_NETWORKS, SANDBOX_MODES, SAVE_BEFORE_COMMANDS, SEARCH_BACKENDS } from "./schema-enums.js";
import { MCP_DISCOVERY_MODES, TOKEN_STORES } from "./schema-mcp-servers.js";

/** `[web]`. */
export const webTable = () => table({
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
});

/** `[browser]`. */
export const browserTable = () => table({
    executable: key(
      z.string(),
      "",
      "string",
      "The Chromium (or Chrome) `browser_action` drives; empty finds `chromium`, `chromium-browser`, `google-chrome` or `google-chrome-stable` on PATH. Without one the tool is not offered.",
    ),
});

/** `[images]`. */
export const imagesTable = () => table({
    model: key(
      z.string(),
      "",
      "string",
      "The model of `generate_image`, as `NAME/model-id`: an OpenAI image model (`openai/gpt-image-1`) or a Gemini image model (`gemini/gemini-2.5-flash-image`), with that provider's key. Empty leaves the tool out.",
    ),
});

/** `[exec]`. */
export const execTable = () => table({
    sandbox: key(
      z.enum(SANDBOX_MODES),
      "auto",
      "string",
      "Run every command, skill script and git call (and MCP servers with `sandbox = true`) in the kernel sandbox (bubblewrap on Linux, `sandbox-exec` on macOS; docs/safety.md): the disk read-only except the project and a private `/tmp`, credential folders and agent-lsp's own state unreadable, its own process namespace, no network beyond `network`. `\"auto\"`: wherever the sandbox works, else without it (the tool call says why). `\"required\"`: a command that cannot be sandboxed is not run. `\"off\"`: never sandboxed. A project may only make it stricter.",
    ),
    network: key(
      z.enum(EXEC_NETWORKS),
      "off",
      "string",
      "What a sandboxed command may reach: `\"off\"` nothing (not even this machine's servers), `\"allow_hosts\"` the hosts of `allow_hosts` through a filtering HTTP(S) proxy, which refuses private and local addresses as `web_fetch` does unless `[web] allow_hosts` lists the host. Only from your user config or the editor's settings.",
    ),
    allow_hosts: key(
      z.array(z.string().min(1)),
      [],
      "array of strings",
      "With `network = \"allow_hosts\"`: the hosts sandboxed commands may reach through the proxy (`registry.npmjs.org`, or `*.example.com` for every subdomain). Programs find the proxy through `HTTP_PROXY`/`HTTPS_PROXY`. Only from your user config or the editor's settings.",
    ),
    env_deny: key(z.array(z.string()), [], "array of strings", "Environment variables removed from commands the agent runs (provider keys are always removed)."),
    client_terminal: key(
      z.boolean(),
      true,
      "boolean",
      "Run foreground commands in the client's own terminal when it offers one (ACP clients that declare `terminal`), so the user watches them there. The timeout, the output limit and cancel still apply; the client's terminal has the client's environment, so `env_deny` does not reach it.",
    ),
    background_log_max_mb: key(
      z.number().positive().max(4096),
      64,
      "number",
      "Most megabytes (MiB) one background command's log keeps (`.agent-lsp/processes/<id>.log`): past it the oldest output is dropped, so a command that never stops printing cannot fill the disk. `background_process` `read` and `/logs` say when output was dropped. Fractions allowed.",
    ),
    save_before_commands: key(
      z.enum(SAVE_BEFORE_COMMANDS),
      "ask",
      "string",
      "Commands read the disk, so before one runs, the open files the agent changed and did not save are saved (through `agent/saveDocuments`, in editors that declare it). `\"ask\"`: the command's approval says so (\"and save 2 files first: a.ts, b.ts\"), and a Yes covers it; where no approval is asked (`full_access`, `auto`, a remembered rule) they are saved and a status line and the result say so. `\"always\"`: saved before every command, said in the result. `\"never\"`: not saved. Where nothing is saved (`\"never\"`, or an editor without `agent/saveDocuments`), the approval and the result name the open files whose agent changes the command will not see.",
    ),
});

/** `[mcp]`. */
export const mcpTable = () => table({
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
});
