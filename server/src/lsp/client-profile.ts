/**
 * What the server knows of its client beyond single capabilities, read once at initialize from
 * `clientInfo` and the capabilities: whether it speaks the agent protocol, and how its message
 * line shows `window/showMessage`.
 */
import type { InitializeParams } from "vscode-languageserver/node.js";

/** The client, as the server adapts to it. */
export interface ClientProfile {
  /** `clientInfo.name` as sent ("helix", "Neovim", "emacs"), "" when none was. */
  name: string;
  /** `clientInfo.version`, when sent. */
  version?: string;
  /**
   * It declares `capabilities.experimental.agent`: it has agent-lsp's own UI (the Neovim plugin,
   * the Emacs package) and gets `agent/update`; others would only log each one as ignored.
   */
  agentProtocol: boolean;
  /**
   * Its message line shows one row of a message and drops line breaks (Helix, every version so
   * far), so paragraphs sent as `\n\n` would run together ("done, $0.0004Here is…").
   */
  oneRowMessages: boolean;
}

/** Clients whose message line is one row (by `clientInfo.name`, lower-cased). */
const ONE_ROW_CLIENTS = new Set(["helix"]);

/** The profile of the client that sent `params`. */
export function clientProfile(params: Pick<InitializeParams, "clientInfo" | "capabilities">): ClientProfile {
  const name = params.clientInfo?.name ?? "";
  const experimental = params.capabilities.experimental as { agent?: unknown } | undefined;
  return {
    name,
    ...(params.clientInfo?.version ? { version: params.clientInfo.version } : {}),
    agentProtocol: Boolean(experimental?.agent),
    oneRowMessages: ONE_ROW_CLIENTS.has(name.toLowerCase()),
  };
}

/**
 * A message laid out for a one-row message line: the lines of a paragraph joined by a space, the
 * paragraphs by " — ", so what the row shows still reads as sentences.
 */
export function oneRow(message: string): string {
  return message
    .trim()
    .split(/\n[ \t]*\n+/)
    .map((paragraph) =>
      paragraph
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .join(" "),
    )
    .filter(Boolean)
    .join(" — ");
}
