/** The package version: injected by the bundler (esbuild `define`), "dev" when run from source. */
declare const AGENT_LSP_VERSION: string | undefined;

/** agent-lsp's version. */
export const VERSION: string = typeof AGENT_LSP_VERSION === "string" ? AGENT_LSP_VERSION : "0.0.0-dev";
