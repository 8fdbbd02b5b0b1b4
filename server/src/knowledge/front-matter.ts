/**
 * The front matter of a SKILL.md: a `---` block of `key: value` lines at the top. Only the
 * subset skills use is read (strings, and lists as `[a, b]` or `- a` lines); anything else is a
 * clear error naming the line, never a guess.
 */

/** The parsed block and the text after it. */
export interface FrontMatter {
  fields: Record<string, string | string[]>;
  body: string;
}

/** Parses the front matter of `text`; throws an Error saying what is wrong. */
export function parseFrontMatter(text: string): FrontMatter {
  // Only the block is split into lines: a long body is sliced off whole.
  const close = /^---[ \t]*\r?$/m;
  const first = /^---[ \t]*\r?\n/.exec(text);
  if (!first) throw new Error("it has no front matter (a first line `---`, then `name:` and `description:`, then `---`)");
  const rest = text.slice(first[0].length);
  const closing = close.exec(rest);
  if (!closing) throw new Error("its front matter is not closed by a `---` line");
  const lines = ["---", ...rest.slice(0, closing.index).replace(/\r?\n$/, "").split(/\r?\n/)];
  const end = lines.length;
  const body = rest.slice(closing.index + closing[0].length);
  const fields: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey) {
      (fields[listKey] as string[]).push(unquote(item[1]!));
      continue;
    }
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) throw new Error(`front matter line ${i + 1} is not \`key: value\`: ${line.trim()}`);
    const [, name, raw] = m as unknown as [string, string, string];
    listKey = undefined;
    if (raw === "") {
      fields[name] = [];
      listKey = name;
    } else if (raw.startsWith("[")) {
      if (!raw.endsWith("]")) throw new Error(`front matter line ${i + 1}: the list of ${name} is not closed by \`]\``);
      fields[name] = raw.slice(1, -1).split(",").map((s) => unquote(s.trim())).filter(Boolean);
    } else fields[name] = unquote(raw.trim());
  }
  return { fields, body: body.replace(/^(\r?\n)+/, "") };
}

function unquote(s: string): string {
  return /^(["']).*\1$/.test(s) ? s.slice(1, -1) : s;
}
