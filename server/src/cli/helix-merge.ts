/**
 * Merges agent-lsp into a user's Helix languages.toml as a text edit, so their comments, order
 * and layout stay: the `[language-server.agent-lsp]` table is appended when missing; a language
 * the user already has gets "agent-lsp" added to its `language-servers` (their choice of servers
 * kept), or the key with Helix's defaults plus agent-lsp when they never set it; languages they
 * do not have are appended as blocks. Helix's defaults are those of the installed Helix
 * (helix-defaults.ts). Running it on its own result changes nothing.
 */
import { parse } from "smol-toml";
import type { HelixDefaults } from "./helix-defaults.js";
import { AGENT_SERVER, agentServerTable, HELIX_LANGUAGES, languageBlock, serverArray, serversFor, type HelixLanguage } from "./helix-languages.js";
import { scanToml, type TomlEntry, type TomlStatement, type TomlValue } from "./toml-scan.js";

/** The merged text and what changed. */
export interface HelixMerge {
  text: string;
  /** One line per change, for the user; empty when the file already had everything. */
  changes: string[];
  /**
   * A line per list of the user's that leaves out a default server of the installed Helix (set
   * for an older Helix, or on purpose): said, never changed.
   */
  notes: string[];
}

type TomlData = Record<string, unknown>;

/** A `[[language]]` block of the user's file. */
interface LanguageBlock {
  /** Its place in the parsed `language` array. */
  index: number;
  name?: string;
  nameEntry?: TomlEntry;
  servers?: TomlEntry;
}

interface Insertion {
  at: number;
  text: string;
}

/** The comment above what is appended: whose defaults the lists repeat. */
function appendixNote(helix: HelixDefaults): string {
  return `# Added by \`agent-lsp setup helix\`: the default servers of ${helix.version} plus agent-lsp.`;
}

/** Merges the snippet into `userText` (a languages.toml, possibly empty). Throws when it cannot do so safely. */
export function mergeHelixLanguages(userText: string, helix: HelixDefaults): HelixMerge {
  const data = parseToml(userText, "languages.toml is not valid TOML, so it is left as it is");
  const eol = userText.includes("\r\n") ? "\r\n" : "\n";
  const blocks = languageBlocks(scanToml(userText), data);
  const insertions: Insertion[] = [];
  const appended: string[] = [];
  const changes: string[] = [];
  const notes: string[] = [];
  if (!hasAgentServer(data)) {
    appended.push(agentServerTable(eol));
    changes.push(`added [language-server.${AGENT_SERVER}]`);
  }
  for (const language of HELIX_LANGUAGES) {
    const defaults = helix.servers[language.name] ?? [];
    const mine = blocks.filter((b) => b.name === language.name);
    if (!mine.length) {
      appended.push(languageBlock(language, defaults, eol));
      changes.push(`${language.name}: added a [[language]] block, language-servers = ${serverArray(serversFor(language, defaults))} (${helix.version}'s defaults plus agent-lsp)`);
    }
    for (const block of mine) {
      const parsed = languageAt(data, block.index);
      const change = addAgentToBlock(userText, block, language, defaults, parsed, eol, insertions);
      if (change) changes.push(`${language.name}: ${change}`);
      const left = block.servers ? defaults.filter((d) => !serverNames(parsed["language-servers"]).includes(d)) : [];
      if (left.length) notes.push(`${language.name}: your language-servers leaves out ${left.map((d) => JSON.stringify(d)).join(", ")}, default in ${helix.version}; add them if you want them`);
    }
  }
  const text = applyInsertions(userText, insertions) + appendix(userText, appended, eol, helix);
  verifyMerged(text);
  return { text, changes, notes };
}

/** The `[[language]]` blocks of the file with their name and `language-servers` entries. */
function languageBlocks(statements: TomlStatement[], data: TomlData): LanguageBlock[] {
  const blocks: LanguageBlock[] = [];
  let current: LanguageBlock | undefined;
  let inRoot = true;
  for (const s of statements) {
    if (s.kind === "header") {
      inRoot = false;
      current = s.array && s.key.length === 1 && s.key[0] === "language" ? { index: blocks.length } : undefined;
      if (current) blocks.push(current);
    } else if (inRoot && s.key[0] === "language") {
      throw new Error("languages.toml defines `language` inline (language = [...]), which cannot be extended; add the [[language]] blocks of `agent-lsp setup helix` by hand.");
    } else if (current && s.key.length === 1 && s.key[0] === "name") {
      current.nameEntry = s;
    } else if (current && s.key.length === 1 && s.key[0] === "language-servers") {
      current.servers = s;
    }
  }
  const parsed = Array.isArray(data.language) ? data.language.length : 0;
  if (parsed !== blocks.length) throw new Error(`languages.toml has ${parsed} languages but ${blocks.length} [[language]] headers were found; not editing it.`);
  for (const block of blocks) block.name = languageAt(data, block.index).name as string | undefined;
  return blocks;
}

/** Adds agent-lsp to one of the user's blocks; says what it did, or undefined when it was there. */
function addAgentToBlock(text: string, block: LanguageBlock, language: HelixLanguage, defaults: readonly string[], parsed: TomlData, eol: string, out: Insertion[]): string | undefined {
  if (block.servers) {
    if (serverNames(parsed["language-servers"]).includes(AGENT_SERVER)) return undefined;
    const array = block.servers.value.array;
    if (!array) throw new Error(`languages.toml: language-servers of "${language.name}" is not an array; not editing it.`);
    insertIntoArray(text, block.servers.value, eol, out);
    return `added "${AGENT_SERVER}" to your language-servers`;
  }
  // Without the key the language has Helix's defaults; setting it replaces them, so list them too.
  const line = `language-servers = ${serverArray(serversFor(language, defaults))}`;
  out.push({ at: block.nameEntry!.lineEnd, text: `${eol}${line}` });
  return `set ${line} (Helix's defaults plus agent-lsp: you had not set the key)`;
}

/**
 * Adds "agent-lsp" as the last element of an array, in the array's own layout: on a line of its
 * own (with the elements' indent) when the closing bracket has its own line, else after the last
 * element. A comment after the last element stays where it is.
 */
function insertIntoArray(text: string, value: TomlValue, eol: string, out: Insertion[]): void {
  const { open, close, elements } = value.array!;
  const item = JSON.stringify(AGENT_SERVER);
  const last = elements.at(-1);
  if (!last) {
    out.push({ at: open + 1, text: item });
    return;
  }
  const closeLineStart = text.lastIndexOf("\n", close - 1) + 1;
  const closeOnOwnLine = closeLineStart > last.end && text.slice(closeLineStart, close).trim() === "";
  if (!closeOnOwnLine) {
    out.push({ at: last.end, text: `, ${item}` });
    return;
  }
  const lastLineStart = text.lastIndexOf("\n", last.start - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lastLineStart, last.start))![0];
  const between = text.slice(last.end, close).replace(/#[^\n]*/g, "");
  if (!between.includes(",")) out.push({ at: last.end, text: "," });
  out.push({ at: closeLineStart, text: `${indent}${item},${eol}` });
}

function applyInsertions(text: string, insertions: Insertion[]): string {
  let out = text;
  for (const { at, text: piece } of [...insertions].sort((a, b) => b.at - a.at)) out = out.slice(0, at) + piece + out.slice(at);
  return out;
}

/** What is appended at the end of the file: a note, then the missing table and blocks. */
function appendix(userText: string, pieces: string[], eol: string, helix: HelixDefaults): string {
  if (!pieces.length) return "";
  const separator = userText === "" ? "" : userText.endsWith("\n") ? eol : eol + eol;
  return `${separator}${appendixNote(helix)}${eol}${eol}${pieces.join(eol + eol)}${eol}`;
}

/** Checks the result parses and has agent-lsp everywhere, so a merge bug never reaches the user's file. */
function verifyMerged(text: string): void {
  const data = parseToml(text, "the merged languages.toml would not be valid TOML (a table defined inline?); add the snippet by hand");
  const missing = HELIX_LANGUAGES.filter((l) => {
    const entries = (data.language as TomlData[]).filter((entry) => entry.name === l.name);
    return !entries.length || entries.some((entry) => !serverNames(entry["language-servers"]).includes(AGENT_SERVER));
  });
  if (!hasAgentServer(data) || missing.length) {
    throw new Error(`internal error: the merged languages.toml lacks agent-lsp for ${missing.map((l) => l.name).join(", ") || "[language-server.agent-lsp]"}`);
  }
}

function parseToml(text: string, context: string): TomlData {
  try {
    return parse(text) as TomlData;
  } catch (err) {
    throw new Error(`${context}: ${(err as Error).message}`);
  }
}

function hasAgentServer(data: TomlData): boolean {
  const servers = data["language-server"] as TomlData | undefined;
  return servers?.[AGENT_SERVER] !== undefined;
}

function languageAt(data: TomlData, index: number): TomlData {
  return ((data.language as TomlData[] | undefined) ?? [])[index] ?? {};
}

/** The names in a `language-servers` value: strings, or tables with a `name`. */
function serverNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) => (typeof v === "string" ? v : (v as { name?: string })?.name ?? ""));
}
