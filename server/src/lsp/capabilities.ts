/**
 * What the server advertises and which methods it serves, as plain constants. This module is on
 * the start-up path, so it imports nothing heavy: the handlers themselves load after initialize.
 */
import type { CodeActionOptions, ServerCapabilities } from "vscode-languageserver/node.js";
import { CLIENT_NOTIFICATIONS, CLIENT_REQUESTS } from "../protocol/method-names.js";

/** The commands behind the code actions, in menu order. */
export const AGENT_ACTION_COMMANDS = ["agent.fix", "agent.explain", "agent.refactor", "agent.tests"] as const;

/** One of the code-action commands. */
export type AgentActionCommand = (typeof AGENT_ACTION_COMMANDS)[number];

/**
 * The kind of each action. Explain and refactor work on the selection (refactor family); tests
 * usually add code elsewhere in the project (source family). Sub-kinds keep `context.only`
 * filters on the standard roots working.
 */
export const AGENT_ACTION_KINDS: Record<AgentActionCommand, string> = {
  "agent.fix": "quickfix",
  "agent.explain": "refactor.agent.explain",
  "agent.refactor": "refactor.rewrite",
  "agent.tests": "source.agent.tests",
};

/** The kind of the chat file's actions (Send to agent, Approve...; lsp/chat/). */
export const CHAT_ACTION_KIND = "source.agent.chat";

/** The commands of the chat file (lsp/chat/chat-actions.ts), for clients without the agent protocol. */
export const CHAT_COMMANDS = ["agent.send", "agent.openChat", "agent.addSelection", "agent.answer", "agent.setMode", "agent.command"] as const;

/** What the server advertises as `codeActionProvider`. */
const CODE_ACTION_PROVIDER: CodeActionOptions = {
  codeActionKinds: [...new Set([...Object.values(AGENT_ACTION_KINDS), CHAT_ACTION_KIND])],
  resolveProvider: false,
};

/** Every command the server runs (workspace/executeCommand). */
export const EXECUTE_COMMANDS = ["agent.newSession", "agent.prompt", "agent.cancel", ...AGENT_ACTION_COMMANDS, ...CHAT_COMMANDS] as const;

/**
 * The commands a client without the agent protocol can run from its command palette: those that
 * need no arguments. The others still run from the code actions that carry their arguments.
 */
export const PALETTE_COMMANDS = ["agent.send", "agent.openChat", "agent.newSession", "agent.cancel"] as const;

/** What initialize tells about the client, as far as the advertised commands depend on it. */
export interface ClientFacts {
  capabilities?: { experimental?: unknown };
  clientInfo?: { name: string; version?: string };
}

/**
 * The commands to advertise: all of them to a client with the agent protocol (its plugin passes
 * arguments); to others only what their palette can run, plus `agent.prompt` where the palette
 * passes arguments (Helix from 25.07 on).
 */
export function advertisedCommands(client: ClientFacts | undefined): string[] {
  if (!client || (client.capabilities?.experimental as { agent?: unknown } | undefined)?.agent) return [...EXECUTE_COMMANDS];
  return [...PALETTE_COMMANDS, ...(passesArguments(client.clientInfo) ? ["agent.prompt"] : [])];
}

/** Helix 25.07 and later pass `:lsp-workspace-command NAME ARGS` as JSON arguments; 25.01 passes none. */
function passesArguments(info: ClientFacts["clientInfo"]): boolean {
  if (info?.name.toLowerCase() !== "helix") return false;
  const [year, month] = (info.version ?? "").split(".").map(Number);
  return year !== undefined && month !== undefined && (year > 25 || (year === 25 && month >= 7));
}

/** Requests served once the agent has loaded (every other method is -32601). */
export const DEFERRED_REQUESTS = [...CLIENT_REQUESTS, "workspace/executeCommand", "textDocument/codeAction"] as const;

/** Notifications served once the agent has loaded. */
export const DEFERRED_NOTIFICATIONS = [...CLIENT_NOTIFICATIONS, "workspace/didChangeConfiguration"] as const;

/** The server's capabilities for the client that initializes it (its facts decide the advertised commands). */
export function serverCapabilities(client?: ClientFacts): ServerCapabilities {
  return {
    // 2 = TextDocumentSyncKind.Incremental (a literal: this module must not load the library).
    textDocumentSync: { openClose: true, change: 2 },
    executeCommandProvider: { commands: advertisedCommands(client) },
    codeActionProvider: CODE_ACTION_PROVIDER,
    experimental: { agent: { version: 1 } },
  };
}
