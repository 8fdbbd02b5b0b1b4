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

/** Commands advertised in executeCommandProvider. */
export const EXECUTE_COMMANDS = ["agent.newSession", "agent.prompt", "agent.cancel", ...AGENT_ACTION_COMMANDS, ...CHAT_COMMANDS] as const;

/** Requests served once the agent has loaded (every other method is -32601). */
export const DEFERRED_REQUESTS = [...CLIENT_REQUESTS, "workspace/executeCommand", "textDocument/codeAction"] as const;

/** Notifications served once the agent has loaded. */
export const DEFERRED_NOTIFICATIONS = [...CLIENT_NOTIFICATIONS, "workspace/didChangeConfiguration"] as const;

/** The server's capabilities. */
export function serverCapabilities(): ServerCapabilities {
  return {
    // 2 = TextDocumentSyncKind.Incremental (a literal: this module must not load the library).
    textDocumentSync: { openClose: true, change: 2 },
    executeCommandProvider: { commands: [...EXECUTE_COMMANDS] },
    codeActionProvider: CODE_ACTION_PROVIDER,
    experimental: { agent: { version: 1 } },
  };
}
