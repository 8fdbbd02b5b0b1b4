/**
 * HTML (readability's cleaned article) to Markdown the model reads well: headings, paragraphs,
 * lists (nested), links with absolute addresses, code blocks with their language, inline code,
 * emphasis, quotes and simple tables. Works on any DOM (linkedom's here); pure otherwise.
 */

/** The slice of the DOM this converter reads. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  getAttribute?(name: string): string | null;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const SKIPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "FORM", "BUTTON", "INPUT", "SELECT", "TEXTAREA"]);

/** Converts `root`'s children to Markdown; relative links resolve against `base`. */
export function toMarkdown(root: DomNode, base: string): string {
  const out = blocks(root, { base, listDepth: 0 });
  // Whitespace between blocks leaves lines of spaces; they and the runs of blank lines go.
  return out.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").trim();
}

interface Context {
  base: string;
  listDepth: number;
}

/** Block-level conversion: each block separated by a blank line. */
function blocks(node: DomNode, ctx: Context): string {
  let out = "";
  for (let child = node.firstChild; child; child = child.nextSibling) out += block(child, ctx);
  return out;
}

function block(node: DomNode, ctx: Context): string {
  if (node.nodeType === TEXT_NODE) return collapse(node.textContent ?? "");
  if (node.nodeType !== ELEMENT_NODE) return "";
  const name = node.nodeName.toUpperCase();
  if (SKIPPED.has(name)) return "";
  const heading = /^H([1-6])$/.exec(name);
  if (heading) return `\n\n${"#".repeat(Number(heading[1]))} ${inline(node, ctx).trim()}\n\n`;
  switch (name) {
    case "P":
      return `\n\n${inline(node, ctx).trim()}\n\n`;
    case "BR":
      return "\n";
    case "HR":
      return "\n\n---\n\n";
    case "PRE":
      return codeBlock(node);
    case "UL":
    case "OL":
      return list(node, name === "OL", ctx);
    case "BLOCKQUOTE":
      return `\n\n${blocks(node, ctx).trim().replace(/^/gm, "> ")}\n\n`;
    case "TABLE":
      return table(node, ctx);
    case "DIV":
    case "SECTION":
    case "ARTICLE":
    case "MAIN":
    case "HEADER":
    case "FOOTER":
    case "FIGURE":
    case "DL":
    case "DD":
    case "DT":
      return `\n${blocks(node, ctx)}\n`;
    default:
      return inline(node, ctx);
  }
}

/** Inline content: text, links, code, emphasis, images. */
function inline(node: DomNode, ctx: Context): string {
  let out = "";
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE) {
      out += collapse(child.textContent ?? "");
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const name = child.nodeName.toUpperCase();
    if (SKIPPED.has(name)) continue;
    out += inlineElement(child, name, ctx);
  }
  return out;
}

function inlineElement(node: DomNode, name: string, ctx: Context): string {
  switch (name) {
    case "A": {
      const text = inline(node, ctx).trim();
      const href = absolute(node.getAttribute?.("href"), ctx.base);
      if (!href || href.startsWith("javascript:")) return text;
      return text ? `[${text}](${href})` : "";
    }
    case "CODE":
    case "KBD":
    case "SAMP":
      return codeSpan(node.textContent ?? "");
    case "STRONG":
    case "B":
      return wrap(inline(node, ctx), "**");
    case "EM":
    case "I":
      return wrap(inline(node, ctx), "_");
    case "IMG": {
      const alt = node.getAttribute?.("alt") ?? "";
      const src = absolute(node.getAttribute?.("src"), ctx.base);
      return src ? `![${alt}](${src})` : alt;
    }
    case "BR":
      return "\n";
    default:
      // A block inside inline content (a div in a link, a paragraph in a list item).
      return /^(P|DIV|UL|OL|PRE|TABLE|BLOCKQUOTE|H[1-6])$/.test(name) ? block(node, ctx) : inline(node, ctx);
  }
}

function codeBlock(node: DomNode): string {
  let code = node.firstChild;
  while (code && code.nodeName.toUpperCase() !== "CODE") code = code.nextSibling;
  const cls = `${code?.getAttribute?.("class") ?? ""} ${node.getAttribute?.("class") ?? ""}`;
  const lang = /(?:language|lang)-([\w+#.-]+)/.exec(cls)?.[1] ?? "";
  const text = (node.textContent ?? "").replace(/\n$/, "");
  const fence = text.includes("```") ? "~~~~" : "```";
  return `\n\n${fence}${lang}\n${text}\n${fence}\n\n`;
}

function list(node: DomNode, ordered: boolean, ctx: Context): string {
  const indent = "  ".repeat(ctx.listDepth);
  const inner = { ...ctx, listDepth: ctx.listDepth + 1 };
  let n = 1;
  const items: string[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeName.toUpperCase() !== "LI") continue;
    const marker = ordered ? `${n++}.` : "-";
    const body = inline(child, inner).trim().replace(/\n{2,}/g, "\n").replace(/\n/g, `\n${indent}  `);
    items.push(`${indent}${marker} ${body}`);
  }
  return ctx.listDepth ? `\n${items.join("\n")}` : `\n\n${items.join("\n")}\n\n`;
}

function table(node: DomNode, ctx: Context): string {
  const rows: string[][] = [];
  const walk = (n: DomNode) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      const name = c.nodeName.toUpperCase();
      if (name === "TR") {
        const cells: string[] = [];
        for (let cell = c.firstChild; cell; cell = cell.nextSibling) {
          if (/^(TD|TH)$/i.test(cell.nodeName)) cells.push(inline(cell, ctx).trim().replace(/\|/g, "\\|").replace(/\n/g, " "));
        }
        rows.push(cells);
      } else if (c.nodeType === ELEMENT_NODE) walk(c);
    }
  };
  walk(node);
  if (!rows.length) return "";
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return `\n\n${[line(rows[0]!), line(Array(width).fill("---")), ...rows.slice(1).map(line)].join("\n")}\n\n`;
}

function codeSpan(text: string): string {
  const t = collapse(text);
  return t.includes("`") ? `\`\` ${t} \`\`` : `\`${t}\``;
}

function wrap(text: string, mark: string): string {
  const t = text.trim();
  return t ? `${mark}${t}${mark}` : "";
}

/**
 * Each run of white space as one space. A run that is one space already is left alone: matching
 * only longer runs and lone other white space gives the same text with far fewer replacements.
 */
function collapse(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, " ");
}

function absolute(href: string | null | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}
