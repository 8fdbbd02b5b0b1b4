/**
 * What a prompt shows the user is what is at stake, and nothing can disguise it: every text of a
 * permission prompt or a question (its summary, title, input, command, diff, question and
 * choices) has its control characters made visible (`\x1b[8m` hid the tail of a command in
 * terminal UIs; `\r` overwrites a line), as have the invisible characters that reorder or hide
 * text (bidi overrides, zero-width characters); and a web address is shown whole, wrapped onto
 * lines of its own when it is long, never cut. The runtime puts every SessionUI behind {@link withCleanPrompts},
 * so no route (the gate, MCP launches, skills, a tool's own prompt) can skip it.
 */
import type { PermissionRequest, Question, SessionUI } from "./session-ui.js";

/** Longest run of a web address on one line of a prompt. */
export const URL_LINE = 100;

/**
 * Control characters (but the line break, the tab and a line ending's `\r` before `\n`, which
 * overwrites nothing), DEL and the C1 controls.
 */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;
/** Characters that reorder, join or hide text without being seen. */
const INVISIBLES = /[\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
/** A web (or other scheme's) address up to the next space. */
export const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** `text` with every control and invisible character written as a visible escape, and long addresses wrapped. */
export function promptText(text: string): string {
  return wrapUrls(visibleText(text));
}

/**
 * `text` with its control characters (but line breaks and tabs) and invisible characters written
 * as visible escapes, nothing else changed: for a diff, or a line a terminal prints, whose shape
 * must stay as it is.
 */
export function visibleText(text: string): string {
  return text
    .replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    .replace(INVISIBLES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Each address longer than {@link URL_LINE} on lines of its own, in pieces of that length: whole, never cut. */
export function wrapUrls(text: string): string {
  return text.replace(URL_PATTERN, (url, offset: number, all: string) => {
    if (url.length <= URL_LINE) return url;
    const pieces: string[] = [];
    for (let i = 0; i < url.length; i += URL_LINE) pieces.push(url.slice(i, i + URL_LINE));
    const before = offset > 0 && all[offset - 1] !== "\n" ? "\n" : "";
    const after = offset + url.length < all.length && all[offset + url.length] !== "\n" ? "\n" : "";
    return `${before}${pieces.join("\n")}${after}`;
  });
}

/** A permission request with every text a client shows cleaned. */
export function cleanPermission(request: PermissionRequest): PermissionRequest {
  const call = request.toolCall;
  return {
    ...request,
    summary: promptText(request.summary),
    // A file's own `\x1b[1A\x1b[2K` could erase lines of the diff in a terminal.
    ...(request.diff !== undefined ? { diff: visibleText(request.diff) } : {}),
    toolCall: {
      ...call,
      title: promptText(call.title),
      // Clients show the input of a call that is not a command (Emacs lists its fields).
      input: visibleValues(call.input),
      ...(call.modelInput !== undefined ? { modelInput: visibleValues(call.modelInput) } : {}),
      ...(call.command ? { command: { command: promptText(call.command.command), cwd: promptText(call.command.cwd) } } : {}),
    },
  };
}

/** Every string inside `value` (arrays and objects walked) with {@link visibleText}. */
function visibleValues(value: unknown): unknown {
  if (typeof value === "string") return visibleText(value);
  if (Array.isArray(value)) return value.map(visibleValues);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleValues(v)]));
  return value;
}

/** A question with its text and choices cleaned, and how to map the choice answered back to the one offered. */
export function cleanQuestion(question: Question): { question: Question; original(answer: string | undefined): string | undefined } {
  const choices = question.choices?.map(promptText);
  return {
    question: { ...question, question: promptText(question.question), ...(choices ? { choices } : {}) },
    original: (answer) => {
      const at = answer === undefined || !choices ? -1 : choices.indexOf(answer);
      return at >= 0 ? question.choices![at] : answer;
    },
  };
}

/**
 * The same UI (every other member passes through, bound to it) whose permission prompts and
 * questions are cleaned before any front end renders them.
 */
export function withCleanPrompts<T extends SessionUI>(ui: T): T {
  return new Proxy(ui, {
    get(target, prop) {
      if (prop === "requestPermission") return (request: PermissionRequest, signal: AbortSignal) => target.requestPermission(cleanPermission(request), signal);
      if (prop === "askUser") {
        return async (question: Question, signal: AbortSignal) => {
          const cleaned = cleanQuestion(question);
          return cleaned.original(await target.askUser(cleaned.question, signal));
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value, target);
    },
  });
}
