/**
 * The HTML reduction gives the same results after its speed-ups (readability's helpers replaced for
 * linkedom, the Markdown walk without child lists): each page's whole answer is pinned to a hash
 * of the answer the code gave before them, and the stock Readability runs beside ours on every
 * page with the same article, title, byline and resulting document.
 */
import { createHash } from "node:crypto";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { pageText } from "../../../server/src/web/page-content.js";
import { elementsNamed, LinkedomReadability } from "../../../server/src/web/readability-linkedom.js";
import { PAGES } from "./page-fixtures.js";

/** [page, first 16 hex digits of the SHA-256 of JSON.stringify(pageText(...)), kind, that JSON's length], taken before the speed-ups. */
const EXPECTED: Array<[string, string, string, number]> = [
  ["bench article (12,000 paragraphs)", "d8e8983e4789164b", "article", 2017091],
  ["small article", "04812194e9fb72cf", "article", 1516],
  ["docs page", "28709d89030866e5", "article", 774],
  ["code blocks", "2600aecbab6a380d", "article", 2029],
  ["tables", "17c46ae39cdcde7b", "article", 1685],
  ["nested lists", "a136e2a37865f8a0", "article", 1709],
  ["scripts, styles, svg, comments, hidden text", "e8c81077b39f42bb", "article", 1803],
  ["white space of every kind", "31ac520cd62e116d", "article", 1212],
  ["short article (readability retries)", "a5d3ebd49277048f", "article", 529],
  ["not an article (an index)", "c86ea480c40b43f0", "page text", 357],
  ["no body", "90e68e9b6333e8b1", "page text", 173],
  ["test site's unreadable page", "4741667e3f88552e", "page text", 228],
];

const fetched = (html: string) => ({
  url: "https://docs.example.test/a/page.html",
  status: 200,
  redirects: [],
  contentType: "text/html; charset=utf-8",
  body: Buffer.from(html),
});

const html = (name: string): string => PAGES.find(([n]) => n === name)![1];

describe("web_fetch's HTML reduction", () => {
  it("has an expected answer for every page", () => {
    expect(EXPECTED.map(([n]) => n)).toEqual(PAGES.map(([n]) => n));
  });

  it.each(EXPECTED)("gives %s the same answer as before", (name, hash, kind, length) => {
    const answer = JSON.stringify(pageText(fetched(html(name)) as never, false));
    expect(JSON.parse(answer).kind).toBe(kind);
    expect(answer.length).toBe(length);
    expect(createHash("sha256").update(answer).digest("hex").slice(0, 16)).toBe(hash);
  });
});

describe("HTML without its optional tags", () => {
  // Browsers infer html, head and body; linkedom took the first element for the whole document
  // (losing the rest) and threw on a page with no element at all.
  it.each([
    ["plain text served as HTML", "plain words, no tags", "plain words, no tags"],
    ["an empty body", "", ""],
    ["a fragment of two elements", "<div><p>a</p></div><div>b</div>", "a\n\nb"],
    ["no html, head or body tag", "<!DOCTYPE html><title>T</title><p>hi</p><p>there</p>", "T\n\nhi\n\nthere"],
    ["a head and no body tag", "<html><head><title>T</title></head><p>hi</p></html>", "hi"],
    ["an html tag and no body tag", "<html lang=en><p>hi</p><p>two</p></html>", "hi\n\ntwo"],
  ])("%s: every word is kept", (_name, page, text) => {
    expect(pageText(fetched(page) as never, false).text).toBe(text);
  });
});

type Doc = ConstructorParameters<typeof Readability>[0];

/** The pages where readability's first try finds under 500 characters and it tries again. */
const RETRIED = new Set(["short article (readability retries)", "not an article (an index)", "no body", "test site's unreadable page"]);

describe("LinkedomReadability", () => {
  it.each(PAGES)("parses %s as the stock Readability does", (name, page) => {
    const run = (make: (doc: Doc) => { parse(): unknown }) => {
      const { document } = parseHTML(page);
      const result = make(document as unknown as Doc).parse();
      return { result: JSON.stringify(result), after: document.toString() };
    };
    const options = { keepClasses: true, disableJSONLD: true, serializer: (el: unknown) => (el as { outerHTML: string }).outerHTML };
    let reparsed = 0;
    const reparse = () => {
      reparsed++;
      return parseHTML(page).document as unknown as Doc;
    };
    const stock = run((doc) => new Readability(doc, options));
    for (const ours of [run((doc) => new LinkedomReadability(doc, options)), run((doc) => new LinkedomReadability(doc, options, reparse))]) {
      expect(ours.result).toBe(stock.result);
      expect(ours.after).toBe(stock.after);
    }
    // The body is made again only when readability's first try falls short and it goes back to it (once).
    expect(reparsed).toBe(RETRIED.has(name) ? 1 : 0);
  }, 30_000);

  it("finds elements by tag name as linkedom's querySelectorAll does", () => {
    for (const [, page] of PAGES.slice(1)) {
      const { document } = parseHTML(`${page}<div><template><p>in a template</p></template><P>upper</P><svg><Title>t</Title></svg></div>`);
      for (const tags of [["p"], ["img", "embed", "object", "iframe"], ["h1", "h2", "p", "li"], ["template", "title"], ["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]]) {
        for (const root of [document, document.body ?? document, ...Array.from(document.querySelectorAll("div, article, table"))]) {
          expect(elementsNamed(root as never, new Set(tags))).toEqual(Array.from((root as { querySelectorAll(s: string): ArrayLike<unknown> }).querySelectorAll(tags.join(","))));
        }
      }
    }
  });
});
