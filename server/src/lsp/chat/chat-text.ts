/**
 * The chat file's words: headings, the lines the renderer writes (tool lines, usage, notes), the
 * parts of approval and question blocks, and the escaping that keeps text the model or the user
 * wrote from reading as one of the server's headings. Pure: strings in, strings out.
 */
import { dollars } from "../run-summary.js";

/** The chat file, relative to the project root. */
export const CHAT_FILE = ".agent-lsp/chat.md";

/** The heading the user writes under. */
export const YOU_HEADING = "## You";
/** The heading the answer streams under. */
export const AGENT_HEADING = "## Agent";
/** The draft's heading line: the last `## You`, always at the bottom. */
export const DRAFT_HEADING = `${YOU_HEADING}\n`;

/**
 * The start of a fresh chat file; `key` is how the user opens the code-action menu ("space a" in
 * Helix, client-profile.ts), as in every hint below.
 */
export function chatPreamble(key: string): string {
  return `# Agent chat\n\nWrite under the last "${YOU_HEADING}" at the bottom and pick the code action "Send to agent" (${key}). The text above it is the agent's record: a change there is put back.\n\n`;
}

/** The heading of a session's part of the file: `# Session <id>`, after a rule unless it is the first. */
export function sessionHeading(sessionId: string, first: boolean): string {
  return `${first ? "" : "---\n\n"}# Session ${sessionId}\n\n`;
}

/** The session id a `# Session <id>` line names. */
export function sessionIdOf(line: string): string | undefined {
  return /^# Session (\S+)$/.exec(line)?.[1];
}

/** Whether `line` is `heading` (or starts with it and a space). */
export function isHeading(line: string, heading: string): boolean {
  return line === heading || line.startsWith(`${heading} `);
}

/** A turn's start: the user's words under `## You`, then `## Agent` for the answer. */
export function sectionHead(prompt: string): string {
  return `${YOU_HEADING}\n\n${escapeText(prompt.trim())}\n\n${AGENT_HEADING}\n\n`;
}

/** The starts of the server's own headings; a line of someone else's text that starts so is escaped. */
const OWN_HEADING = /^(# Session\b|## You\b|## Agent\b|### Approval needed\b|### Question\b)/;

/** The longest start `OWN_HEADING` needs to see before it can tell. */
export const HEADING_PROBE = "### Approval needed".length;

/** Whether a line starting with `start` (maybe not all of it yet) could still be one of the server's headings. */
export function mayBeHeading(start: string): boolean {
  return start.startsWith("#") && start.length < HEADING_PROBE && !start.includes("\n");
}

/** `text` (the model's or the user's words) with every line that would read as the server's heading escaped. */
export function escapeText(text: string): string {
  return text.replace(/^.*$/gm, (line) => (OWN_HEADING.test(line) ? `\\${line}` : line));
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

/** The id in a block heading `### Approval needed (#id)` / `### Question (#id)`, if the line is one. */
export function isBlockHeading(line: string): string | undefined {
  return /^### (?:Approval needed|Question) \(#([0-9a-z]+)\)/.exec(line)?.[1];
}

/** The heading of an approval block. */
export function approvalHeading(id: string, summary: string): string {
  return `### Approval needed (#${id}): ${oneLine(summary)}`;
}

/** The heading of a question block. */
export function questionHeading(id: string, question: string): string {
  return `### Question (#${id}): ${oneLine(question)}`;
}

/** What an approval block asks the user to do, over the line where a reason goes. */
export function approvalHint(key: string): string {
  return `Pick "Approve", "Approve, don't ask again" or "Reject" (${key}) on this block. To reject with a reason, write it on the line below first.`;
}

/** What a question block asks the user to do. */
export function questionHint(withChoices: boolean, freeText: boolean, key: string): string {
  if (!withChoices) return `Write your answer on the line below, then pick "Send answer" (${key}) on this block.`;
  return `Pick an answer (${key}) on this block.${freeText ? ' Or write your own on the line below, then pick "Send answer".' : ""}`;
}

/** The line under a waiting block's answer lines. */
export function waitingLine(id: string): string {
  return `_#${id} waits for your answer_\n\n`;
}

/** The line that replaces it once the block is settled. */
export function outcomeLine(id: string, outcome: string): string {
  return `_#${id}: ${oneLine(outcome)}_\n\n`;
}

/** A note of the server's own, on a line of its own. */
export function noteLine(text: string): string {
  return `_(${text})_\n\n`;
}

/** A selection quoted for the chat: `path:lines` and the text as a fenced block. */
export function quotedSelection(path: string, startLine: number, endLine: number, text: string, language = ""): string {
  const where = startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
  const fence = text.includes("```") ? "````" : "```";
  return `${where}\n\n${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}\n\n`;
}

/** A text as one short line (an answer may span lines). */
export function oneLine(value: string, max = 80): string {
  const line = value.trim().split("\n")[0]!;
  return line.length > max || value.trim().includes("\n") ? `${line.slice(0, max)}…` : line;
}
