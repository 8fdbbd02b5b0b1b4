/**
 * What a fetched body becomes for the model: HTML reduced to its main content (readability on
 * linkedom, then Markdown), JSON pretty-printed as it is, text as it is, anything else described
 * by type and size. `raw` returns the source as served for every text type.
 */
import { isProbablyReaderable, type Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { decodeBody } from "./charset.js";
import type { FetchedPage } from "./guarded-fetch.js";
import { toMarkdown } from "./markdown.js";
import { LinkedomReadability } from "./readability-linkedom.js";

/** The readable form of a page. */
export interface PageText {
  /** The kind shown in the header line: "article", "page text", "json", "text", "source". */
  kind: string;
  title?: string;
  byline?: string;
  text: string;
  /** Said to the model beside the text (a fallback taken, a type that has no text). */
  note?: string;
}

/** Reduces a page to what the model reads. */
export function pageText(page: FetchedPage, raw: boolean): PageText {
  const type = mediaType(page.contentType, page.body);
  if (!isTextual(type)) {
    return { kind: "binary", text: "", note: `The response is ${type || "of unknown type"}, ${page.body.length} bytes: not text, so nothing of it is shown.` };
  }
  const text = decodeBody(page.body, page.contentType, isMarkup(type)).text;
  if (raw) return { kind: "source", text };
  if (type === "text/html" || type === "application/xhtml+xml") return readableHtml(text, page.url);
  if (type === "application/json" || type.endsWith("+json")) return json(text);
  return { kind: "text", text };
}

/** The media type, from the header or (when it says nothing) sniffed from the first bytes. */
function mediaType(header: string, body: Buffer): string {
  const declared = header.split(";")[0]!.trim().toLowerCase();
  if (declared && declared !== "application/octet-stream") return declared;
  const head = body.subarray(0, 512).toString("utf8").trimStart().toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "text/html";
  if (head.startsWith("{") || head.startsWith("[")) return "application/json";
  return body.subarray(0, 8000).includes(0) ? declared || "application/octet-stream" : "text/plain";
}

function isTextual(type: string): boolean {
  return type.startsWith("text/") || /json|xml|javascript|ecmascript|yaml|toml|csv|x-sh|markdown/.test(type);
}

function isMarkup(type: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml" || type.endsWith("xml");
}

function json(text: string): PageText {
  try {
    return { kind: "json", text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch {
    return { kind: "text", text, note: "The response says it is JSON but does not parse as JSON; shown as served." };
  }
}

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

/**
 * Readability's article as Markdown; the whole page's text when the page is no article (an index,
 * a table, a form: readability would guess wrong there) or readability fails on it.
 */
function readableHtml(html: string, url: string): PageText {
  const source = withBody(stripInert(html));
  const { document } = parseHTML(source);
  const title = (document.title || "").trim() || undefined;
  let failure = "";
  if (isProbablyReaderable(document as unknown as ReadabilityDocument)) {
    try {
      // The serializer hands back the article's element itself: no HTML string to parse again.
      const reparse = () => parseHTML(source).document as unknown as ReadabilityDocument;
      const article = new LinkedomReadability(document as unknown as ReadabilityDocument, { keepClasses: true, disableJSONLD: true, serializer: (el) => el }, reparse).parse();
      const text = article?.content ? toMarkdown(article.content as never, url) : "";
      if (text.trim()) {
        return { kind: "article", title: article!.title?.trim() || title, ...(article!.byline ? { byline: article!.byline.trim() } : {}), text };
      }
    } catch (err) {
      failure = ` (readability failed: ${(err as Error).message})`;
    }
  }
  // Readability changed the document it read: the page's text comes from a fresh parse.
  const page = parseHTML(source).document;
  const body = page.body ? toMarkdown(page.body as never, url) : (page.documentElement?.textContent ?? "").trim();
  return {
    kind: "page text",
    ...(title ? { title } : {}),
    text: body,
    note: `Readability found no main article on this page${failure}; this is the whole page's text. raw: true returns the source.`,
  };
}

/**
 * `source` with a body element around its content. HTML may leave out its html, head and body
 * tags, and browsers infer them; linkedom does not: without a body tag it takes the first element
 * for the whole document (what follows it is lost), or, with no element at all (plain text served
 * as HTML), leaves no root, whose head and body then throw when read.
 */
function withBody(source: string): string {
  if (/<body[\s>]/i.test(source)) return source;
  const headEnd = /<\/head\s*>/i.exec(source);
  if (headEnd) {
    const at = headEnd.index + headEnd[0].length;
    return `${source.slice(0, at)}<body>${source.slice(at).replace(/<\/html\s*>\s*$/i, "")}</body></html>`;
  }
  const inner = source.replace(/<!doctype[^>]*>/i, "").replace(/<html\b[^>]*>/i, "").replace(/<\/html\s*>\s*$/i, "");
  return `<!DOCTYPE html><html><body>${inner}</body></html>`;
}

/** Scripts, styles, inline SVG and comments carry no readable text; dropping them first halves many pages. */
function stripInert(html: string): string {
  return html.replace(/<(script|style|svg|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, "").replace(/<!--[\s\S]*?-->/g, "");
}
