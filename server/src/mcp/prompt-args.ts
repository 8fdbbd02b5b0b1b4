/**
 * A prompt command's words as the prompt's arguments: words map onto the declared arguments in
 * order, double quotes group words, and the last argument takes whatever is left. A required
 * argument without a value makes a usage line instead.
 */

/** An argument a prompt declares. */
export interface DeclaredArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** The arguments, or the usage line to show. */
export type PromptArguments = { ok: true; values: Record<string, string> } | { ok: false; usage: string };

/** Splits `text` into words; a double-quoted run is one word (without its quotes). */
export function splitWords(text: string): string[] {
  return wordSpans(text).map((w) => w.word);
}

/** Each word with where it starts in `text`. */
function wordSpans(text: string): { word: string; start: number }[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => ({ word: m[1] ?? m[2]!, start: m.index! }));
}

/** What is left of `text` from `start` on, as typed (one quoted run alone loses its quotes). */
function rest(text: string, start: number): string {
  const raw = text.slice(start).trim();
  return /^"[^"]*"$/.test(raw) ? raw.slice(1, -1) : raw;
}

/** Maps the typed `text` onto `declared`; `command` names the command in the usage line. */
export function promptArguments(command: string, declared: readonly DeclaredArgument[], text: string): PromptArguments {
  const words = wordSpans(text);
  const values: Record<string, string> = {};
  declared.forEach((arg, i) => {
    const last = i === declared.length - 1;
    const value = last ? (words[i] ? rest(text, words[i]!.start) : undefined) : words[i]?.word;
    if (value !== undefined && value !== "") values[arg.name] = value;
  });
  const missing = declared.filter((a) => a.required && values[a.name] === undefined);
  if (missing.length) return { ok: false, usage: `${promptUsage(command, declared)}\nMissing: ${missing.map((a) => a.name).join(", ")}.` };
  return { ok: true, values };
}

/** `Usage: /mcp__docs__explain <topic> [detail]`, with each argument's description below. */
function promptUsage(command: string, declared: readonly DeclaredArgument[]): string {
  const words = declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  const details = declared.filter((a) => a.description).map((a) => `  ${a.name}: ${a.description}`);
  return [`Usage: /${command}${words.length ? ` ${words.join(" ")}` : ""}`, ...details].join("\n");
}
