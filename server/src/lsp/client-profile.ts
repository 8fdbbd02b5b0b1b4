/**
 * What the server knows of its client beyond single capabilities, read once at initialize from
 * `clientInfo` and the capabilities: whether it speaks the agent protocol, how its message
 * line shows `window/showMessage`, and how its user opens the code-action menu.
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
  /**
   * How its user opens the code-action menu, as the chat file's hints say it ("space a" in
   * Helix, "M-x eglot-code-actions" in Emacs with eglot); words that fit any editor when unknown.
   */
  codeActionKey: string;
}

/** The hint's words for a client not recognised. */
export const ANY_CODE_ACTION_KEY = "your editor's code-action command";

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
    codeActionKey: codeActionKey(params),
  };
}

/** How the user of the client that sent `params` opens its code-action menu. */
function codeActionKey({ clientInfo, capabilities }: Pick<InitializeParams, "clientInfo" | "capabilities">): string {
  const name = (clientInfo?.name ?? "").toLowerCase();
  if (name === "helix") return "space a";
  if (name === "eglot") return "M-x eglot-code-actions";
  // lsp-mode names itself after Emacs.
  if (name === "emacs") return "M-x lsp-execute-code-action";
  if (name === "neovim") return atLeast(clientInfo?.version, [0, 11]) ? "gra" : ":lua vim.lsp.buf.code_action()";
  // Vim's ALE sends no clientInfo; it is the client that declares applyEdit false and an empty
  // list of code-action kinds (Debian's vim-ale 3.3).
  const kinds = capabilities.textDocument?.codeAction?.codeActionLiteralSupport?.codeActionKind.valueSet;
  if (!clientInfo && capabilities.workspace?.applyEdit === false && kinds?.length === 0) return ":ALECodeAction";
  return ANY_CODE_ACTION_KEY;
}

/** Whether `version` ("0.11.2", "v0.10.0-dev") is at least `min`. */
function atLeast(version: string | undefined, min: number[]): boolean {
  const parts = /(\d+)\.(\d+)/.exec(version ?? "");
  if (!parts) return false;
  const [major, minor] = [Number(parts[1]), Number(parts[2])];
  return major > min[0]! || (major === min[0] && minor >= min[1]!);
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
