/**
 * What an MCP server runs, or where its requests go, as configured: the MCP client (mcp/) starts
 * it from these fields and the policy (policy/) shows them, part by part, when a project-defined
 * server is asked about.
 */

/** A server's launch. */
export interface McpLaunch {
  command?: string;
  args: string[];
  env: Record<string, string>;
  /** Names of variables passed on from agent-lsp's own environment (`env` wins a clash). */
  envVars: string[];
  /** Absolute (a relative `cwd` is taken from the project root). */
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Header name -> environment variable holding its value. */
  envHeaders: Record<string, string>;
  /** The environment variable whose value goes out as `Authorization: Bearer VALUE`. */
  bearerTokenEnv?: string;
}
