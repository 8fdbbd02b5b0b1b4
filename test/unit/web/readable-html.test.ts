/**
 * The HTML reduction gives the same results after its speed-ups: each page's whole answer is
 * pinned to a hash of the answer the code gave before them.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pageText } from "../../../server/src/web/page-content.js";
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
