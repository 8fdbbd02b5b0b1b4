/**
 * What `agent-lsp setup helix` adds to Helix's languages.toml: the agent-lsp server entry and,
 * for common languages, a `language-servers` list with agent-lsp in it. Helix REPLACES a
 * language's default servers when `language-servers` is set, so every list repeats the defaults
 * of Helix 25.01's built-in languages.toml (test/editors/helix-setup.test.ts checks them against
 * `hx --health`). editors/helix/languages.toml is the text printed here (a unit test ties them).
 */

/** One language of the snippet. */
export interface HelixLanguage {
  /** Helix's language name (`[[language]] name = ...`). */
  name: string;
  /** Helix 25.01's default `language-servers` for it, in order. */
  defaults: readonly string[];
  /** agent-lsp before the defaults: Helix draws the spinner for the first server only. */
  agentFirst?: boolean;
  /** Why the language is in the list, when it is not obvious (a comment in the snippet). */
  comment?: string;
}

/** The server's name in Helix's config. */
export const AGENT_SERVER = "agent-lsp";

/** The languages the snippet sets up, in the order it lists them. */
export const HELIX_LANGUAGES: readonly HelixLanguage[] = [
  { name: "rust", defaults: ["rust-analyzer"] },
  { name: "python", defaults: ["ruff", "jedi", "pylsp"] },
  { name: "typescript", defaults: ["typescript-language-server"] },
  { name: "tsx", defaults: ["typescript-language-server"] },
  { name: "javascript", defaults: ["typescript-language-server"] },
  { name: "jsx", defaults: ["typescript-language-server"] },
  { name: "go", defaults: ["gopls", "golangci-lint-lsp"] },
  { name: "c", defaults: ["clangd"] },
  { name: "cpp", defaults: ["clangd"] },
  {
    name: "markdown",
    defaults: ["marksman", "markdown-oxide"],
    agentFirst: true,
    comment: "markdown is the language of the agent's chat file (.agent-lsp/chat.md): agent-lsp first, so the spinner is the agent's",
  },
];

/** The full `language-servers` list the snippet gives `language`. */
export function serversFor(language: HelixLanguage): string[] {
  return language.agentFirst ? [AGENT_SERVER, ...language.defaults] : [...language.defaults, AGENT_SERVER];
}

/** A TOML array of server names, on one line. */
export function serverArray(names: readonly string[]): string {
  return `[${names.map((n) => JSON.stringify(n)).join(", ")}]`;
}

/** The `[language-server.agent-lsp]` table. */
export function agentServerTable(eol = "\n"): string {
  return [
    `[language-server.${AGENT_SERVER}]`,
    `command = "agent-lsp"`,
    `args = ["--stdio"]`,
    `# Settings as initializationOptions (the keys of ~/.config/agent-lsp/config.toml), for example:`,
    `# config = { safety = "ask" }`,
  ].join(eol);
}

/** One `[[language]]` block with agent-lsp added to Helix's defaults. */
export function languageBlock(language: HelixLanguage, eol = "\n"): string {
  const lines = ["[[language]]", `name = ${JSON.stringify(language.name)}`, `language-servers = ${serverArray(serversFor(language))}`];
  if (language.comment) lines.unshift(`# ${language.comment}`);
  return lines.join(eol);
}

const HEADER = `# agent-lsp for Helix 25.01: an AI coding agent as an extra language server.
# \`agent-lsp setup helix --write\` merges this into Helix's languages.toml
# (~/.config/helix/languages.toml), keeping what is there, after a backup.
#
# In Helix, setting \`language-servers\` REPLACES a language's default servers, so each list
# below repeats Helix 25.01's defaults for that language and adds agent-lsp. Servers that are
# not installed are skipped by Helix; the rest keep working.
#
# Helix draws the progress spinner for the first server of a list only. To see the agent's
# progress as text in the status line, put this in ~/.config/helix/config.toml:
#
#   [editor.lsp]
#   display-progress-messages = true`;

/** The whole snippet, as `agent-lsp setup helix` prints it and editors/helix/languages.toml holds it. */
export function helixLanguagesSnippet(): string {
  return [HEADER, agentServerTable(), ...HELIX_LANGUAGES.map((l) => languageBlock(l))].join("\n\n") + "\n";
}
