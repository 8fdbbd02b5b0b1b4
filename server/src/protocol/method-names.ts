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
] as const;

/** Notifications a client sends. */
export const CLIENT_NOTIFICATIONS = ["agent/cancel"] as const;

/** One client request's name. */
export type ClientRequest = (typeof CLIENT_REQUESTS)[number];
