/**
 * A tool call's arguments as a terminal prompt shows them: pretty JSON, each string a JSON string
 * (its quotes show where it starts and ends, `\n` and control characters are escapes), invisible
 * characters made visible, and a long value folded to its start and end around a count of what is
 * left out, so the question after it stays on the screen.
 */
import { visibleText } from "./prompt-text.js";

/** Longest string shown whole. */
const LONGEST_VALUE = 200;
/** Most lines of JSON shown. */
const MOST_LINES = 40;

/** The arguments block, indented; empty for a call without arguments. */
export function argumentsText(input: unknown, indent = "  "): string {
  if (input === undefined || input === null || (typeof input === "object" && Object.keys(input).length === 0)) return "";
  const lines = visibleText(JSON.stringify(folded(input), null, 2) ?? String(input)).split("\n");
  const shown = lines.length > MOST_LINES ? [...lines.slice(0, MOST_LINES - 1), `… ${lines.length - MOST_LINES + 1} more lines`] : lines;
  return shown.map((line) => `${indent}${line}`).join("\n");
}

/** `value` with every string longer than {@link LONGEST_VALUE} folded. */
function folded(value: unknown): unknown {
  if (typeof value === "string") return value.length > LONGEST_VALUE ? fold(value) : value;
  if (Array.isArray(value)) return value.map(folded);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, folded(v)]));
  return value;
}

function fold(text: string): string {
  const head = text.slice(0, 140);
  const tail = text.slice(-40);
  return `${head} … (${text.length - head.length - tail.length} characters not shown) … ${tail}`;
}
