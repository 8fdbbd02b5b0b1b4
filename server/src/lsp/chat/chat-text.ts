/**
 * The chat file's text: the markdown the renderer appends (headings, tool lines, usage,
 * approval blocks) and what the server reads back from it (the pending prompt under the last
 * `## You`, the block a cursor is in). Pure: strings in, strings out.
 */
import { dollars } from "../run-summary.js";

/** The chat file, relative to the project root. */
export const CHAT_FILE = ".agent-lsp/chat.md";

/** The heading the user writes under. */
export const YOU_HEADING = "## You";
/** The heading the answer streams under. */
export const AGENT_HEADING = "## Agent";

/** The start of a fresh chat file. */
export const CHAT_PREAMBLE = `# Agent chat\n\nWrite under the last "${YOU_HEADING}" and pick the code action "Send to agent" (space a).\n\n${YOU_HEADING}\n\n`;

/** The text of a new session's block. */
export function sessionHeading(sessionId: string): string {
  return `\n---\n\n# Session ${sessionId}\n\n${YOU_HEADING}\n\n`;
}

/**
 * The prompt waiting to be sent: the text under the last `## You` heading, when no
 * `## Agent` heading follows it. Undefined when there is no such text.
 */
export function pendingPrompt(text: string): string | undefined {
  const lines = text.split("\n");
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    if (isHeading(lines[i]!, YOU_HEADING)) last = i;
  }
  if (last < 0) return undefined;
  const after = lines.slice(last + 1);
  if (after.some((l) => isHeading(l, AGENT_HEADING))) return undefined;
  const prompt = after.join("\n").trim();
  return prompt || undefined;
}

function isHeading(line: string, heading: string): boolean {
  return line === heading || line.startsWith(`${heading} `);
}

/** The one line of a finished tool call: `- read_file src/a.ts ✓`. */
export function toolLine(title: string, status: "completed" | "failed", reason?: string): string {
  const mark = status === "completed" ? "✓" : "✗";
  return `- ${title} ${mark}${status === "failed" && reason ? ` (${reason})` : ""}\n`;
}

/** The usage line under an answer. */
export function usageLine(usage: { inputTokens: number; outputTokens: number; cost?: number }): string {
  const cost = usage.cost === undefined ? "" : `, ${dollars(usage.cost)}`;
  return `_${usage.inputTokens} tokens in, ${usage.outputTokens} out${cost}_\n`;
}

/** What an approval or question block offers, and how it is named in the file. */
export interface BlockInfo {
  id: string;
  kind: "approval" | "question";
}

const BLOCK_HEADING = /^### (Approval needed|Question) \(#([0-9a-z]+)\)/;

/** The heading of an approval block. */
export function approvalHeading(id: string, summary: string): string {
  return `### Approval needed (#${id}): ${summary}`;
}

/** What a question that takes the user's own words asks them to do ("Or write..." after its choices). */
export function freeTextHint(withChoices: boolean): string {
  return `${withChoices ? "Or write" : "Write"} ${FREE_TEXT_HINT_END}`;
}

/** How every free-text hint ends: what finds the block's written answer. */
const FREE_TEXT_HINT_END = 'your answer on the lines below, then pick "Send answer" (space a) on this block.';

/**
 * The answer written under question block `id`: the lines after its hint, up to the next heading
 * or outcome line, trimmed. Undefined when the block (or its hint) is not in the text, or nothing
 * is written.
 */
export function writtenAnswer(text: string, id: string): string | undefined {
  const lines = text.split("\n");
  const heading = lines.findIndex((l) => BLOCK_HEADING.exec(l)?.[2] === id);
  const hint = heading < 0 ? -1 : lines.findIndex((l, i) => i > heading && l.endsWith(FREE_TEXT_HINT_END));
  if (hint < 0) return undefined;
  const answer: string[] = [];
  for (const line of lines.slice(hint + 1)) {
    if (/^#{1,3} /.test(line) || /^_#[0-9a-z]+: /.test(line)) break;
    answer.push(line);
  }
  return answer.join("\n").trim() || undefined;
}

/** The heading of a question block. */
export function questionHeading(id: string, question: string): string {
  return `### Question (#${id}): ${question}`;
}

/**
 * The approval or question block that line `line` (0-based) is in: the nearest block heading at
 * or above it, unless a `##` heading comes between (the block has ended).
 */
export function blockAt(text: string, line: number): BlockInfo | undefined {
  const lines = text.split("\n");
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    const l = lines[i]!;
    const m = BLOCK_HEADING.exec(l);
    if (m) return { id: m[2]!, kind: m[1] === "Question" ? "question" : "approval" };
    if (/^#{1,2} /.test(l)) return undefined;
  }
  return undefined;
}

/** A selection quoted for the chat: `path:lines` and the text as a fenced block. */
export function quotedSelection(path: string, startLine: number, endLine: number, text: string, language = ""): string {
  const where = startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
  const fence = text.includes("```") ? "````" : "```";
  return `${where}\n\n${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}\n\n`;
}
