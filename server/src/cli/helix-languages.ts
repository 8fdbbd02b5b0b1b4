/**
 * What `agent-lsp setup helix` adds to Helix's languages.toml: the agent-lsp server entry and,
 * for common languages, a `language-servers` list with agent-lsp in it. Helix REPLACES a
 * language's default servers when `language-servers` is set, so every list repeats the defaults
 * of the installed Helix, read from it (helix-defaults.ts). editors/helix/languages.toml is the
 * part that holds for every Helix: the server entry (a unit test ties them).
 */
import type { HelixDefaults } from "./helix-defaults.js";

/** One language of the snippet. */
export interface HelixLanguage {
  /** Helix's language name (`[[language]] name = ...`). */
  name: string;
  /** agent-lsp before the defaults: Helix 25.01 draws the spinner for the first server only. */
  agentFirst?: boolean;
  /** Why the language is in the list, when it is not obvious (a comment in the snippet). */
  comment?: string;
}

/** The server's name in Helix's config. */
export const AGENT_SERVER = "agent-lsp";

/** The languages the snippet sets up, in the order it lists them. */
export const HELIX_LANGUAGES: readonly HelixLanguage[] = [
  { name: "rust" },
  { name: "python" },
  { name: "typescript" },
  { name: "tsx" },
  { name: "javascript" },
  { name: "jsx" },
  { name: "go" },
  { name: "c" },
  { name: "cpp" },
  {
    name: "markdown",
    agentFirst: true,
    comment: "markdown is the language of the agent's chat file (.agent-lsp/chat.md): agent-lsp first, so Helix 25.01 (which spins for the first server only) shows the agent's spinner",
  },
];

/** The full `language-servers` list the snippet gives `language`: Helix's defaults and agent-lsp. */
export function serversFor(language: HelixLanguage, defaults: readonly string[]): string[] {
  return language.agentFirst ? [AGENT_SERVER, ...defaults] : [...defaults, AGENT_SERVER];
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
export function languageBlock(language: HelixLanguage, defaults: readonly string[], eol = "\n"): string {
  const lines = ["[[language]]", `name = ${JSON.stringify(language.name)}`, `language-servers = ${serverArray(serversFor(language, defaults))}`];
  if (language.comment) lines.unshift(`# ${language.comment}`);
  return lines.join(eol);
}

const HEADER = `# agent-lsp for Helix: an AI coding agent as an extra language server.
# \`agent-lsp setup helix --write\` merges this into Helix's languages.toml
# (~/.config/helix/languages.toml), keeping what is there, after a backup.
#
# In Helix, setting \`language-servers\` REPLACES a language's default servers, so each list
# repeats the defaults of your Helix for that language and adds agent-lsp. Servers that are not
# installed are skipped by Helix; the rest keep working.`;

/** What the header says of progress, by what Helix line it is for. */
const PROGRESS_NOTE = `#
# To see the agent's progress as text in the status line, put this in
# ~/.config/helix/config.toml:
#
#   [editor.lsp]
#   display-progress-messages = true`;

/** editors/helix/languages.toml: the server entry, and how to add it to a language by hand. */
export function helixServerSnippet(): string {
  const byHand = [
    "# `agent-lsp setup helix` prints the [[language]] blocks for the Helix you have installed: it",
    "# reads each language's default servers from it. By hand, for a language:",
    "#",
    "#   [[language]]",
    '#   name = "python"',
    '#   language-servers = [<the servers `hx --health python` lists>, "agent-lsp"]',
  ].join("\n");
  return [`${HEADER}\n${PROGRESS_NOTE}`, agentServerTable(), byHand].join("\n\n") + "\n";
}

/** The whole snippet for the installed Helix, as `agent-lsp setup helix` prints it. */
export function helixLanguagesSnippet(helix: HelixDefaults): string {
  const read = `#\n# The lists below are the defaults of ${helix.version}, read from ${helix.source}.`;
  const blocks = HELIX_LANGUAGES.map((l) => languageBlock(l, helix.servers[l.name] ?? []));
  return [`${HEADER}\n${read}\n${PROGRESS_NOTE}`, agentServerTable(), ...blocks].join("\n\n") + "\n";
}
