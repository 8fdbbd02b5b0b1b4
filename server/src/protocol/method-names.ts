/**
 * The names of the agent protocol's methods, by direction and kind: the one list the server's
 * advertised capabilities, its handler registration and the documented method table
 * (methods.ts, where each name gets its schema and docs) are all checked against. Plain
 * constants, because the start-up path reads them before anything heavy loads.
 */

/** Requests a client sends (each has a handler in lsp/agent-methods.ts and an entry in methods.ts). */
export const CLIENT_REQUESTS = [
  "agent/newSession",
  "agent/prompt",
  "agent/listSessions",
  "agent/loadSession",
  "agent/setMode",
  "agent/command",
  "agent/listCommands",
  "agent/setModel",
  "agent/listModels",
  "agent/reloadConfig",
] as const;

/** Notifications a client sends. */
export const CLIENT_NOTIFICATIONS = ["agent/cancel"] as const;

/** One client request's name. */
export type ClientRequest = (typeof CLIENT_REQUESTS)[number];

/**
 * The server-to-client request through which the editor's own language servers answer
 * (docs/protocol.md `agent/languageService`), sent only to clients that declare the methods
 * they serve in `capabilities.experimental.agent.languageService`.
 */
export const LANGUAGE_SERVICE_REQUEST = "agent/languageService";

/**
 * The methods `agent/languageService` may carry. All are LSP methods with LSP params and results,
 * except `textDocument/diagnostics`: `{uri?}` -> the editor's current diagnostics of that file
 * (or of every open file), from every source it has.
 */
export const LANGUAGE_SERVICE_METHODS = [
  "textDocument/definition",
  "textDocument/references",
  "textDocument/hover",
  "textDocument/documentSymbol",
  "workspace/symbol",
  "textDocument/prepareRename",
  "textDocument/rename",
  "textDocument/diagnostics",
] as const;

/** One method of `agent/languageService`. */
export type LanguageServiceMethod = (typeof LANGUAGE_SERVICE_METHODS)[number];
