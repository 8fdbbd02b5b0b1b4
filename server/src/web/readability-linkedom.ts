/**
 * Readability (0.6.0, pinned) on linkedom, with four of its helpers replaced by ones that give the
 * same answers on linkedom for less work. On the bench's 2 MB article these helpers were most of
 * readability's time: `_getAllNodesWithTag` went through `querySelectorAll`, which compiles its
 * selector through css-select on every call (once per paragraph in `_prepArticle`);
 * `_isValidByline` read the whole `textContent` of every node it was asked about before looking at
 * the cheap tests (the <html> element's first: the whole page); `_isProbablyVisible` built a
 * CSSStyleDeclaration for every element; and `parse()` serialized the article to HTML only to
 * build a debug message it then drops. test/unit/web/readable-html.test.ts runs the stock
 * Readability beside this one on a table of pages and requires the same results.
 */
import { Readability } from "@mozilla/readability";

/** The slice of a linkedom element these helpers read. */
interface El {
  localName: string;
  className: string;
  textContent: string;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
}

/** Readability's private members that are replaced or read here. */
interface ReadabilityInternals {
  REGEXPS: { byline: RegExp };
  _debug: boolean;
  _grabArticle(page?: unknown): El | null;
  _postProcessContent(article: El): void;
  _isProbablyVisible(node: El): boolean;
}

/**
 * linkedom keeps a parent's nodes as one linked list in document order (start tags, attributes,
 * text, end markers), under symbols it does not export; its own querySelectorAll walks that list.
 * They are found by name on the first node asked about; without them, readability's own
 * querySelectorAll call is made.
 */
let links: { next: symbol; end: symbol } | undefined;

function linksOf(node: object): { next: symbol; end: symbol } | undefined {
  if (links) return links;
  const symbols = Object.getOwnPropertySymbols(node);
  const next = symbols.find((s) => s.description === "next");
  const end = symbols.find((s) => s.description === "end");
  return (links = next && end ? { next, end } : undefined);
}

interface Linked extends El {
  nodeType: number;
  [link: symbol]: Linked;
}

/**
 * What linkedom's `root.querySelectorAll("a,b,...")` returns for plain tag names (given lower-cased
 * in `names`): the elements under `root` of those names, in document order, none inside a
 * <template>; null when linkedom's links are not found.
 */
export function elementsNamed(root: El, names: ReadonlySet<string>): El[] | null {
  const l = linksOf(root);
  if (!l) return null;
  const found: El[] = [];
  const end = (root as Linked)[l.end];
  let next = (root as Linked)[l.next]!;
  while (next !== end) {
    if (next.nodeType === 1) {
      if (names.has(next.localName.toLowerCase())) found.push(next);
      next = next.localName === "template" ? next[l.end]! : next[l.next]!;
    } else next = next[l.next]!;
  }
  return found;
}

/**
 * The same check as readability's for an element with no style
 * attribute (linkedom's style then answers "" for every property); others go to the original.
 */
function visibleUnstyled(node: El): boolean {
  return (
    !node.hasAttribute("hidden") &&
    (!node.hasAttribute("aria-hidden") ||
      node.getAttribute("aria-hidden") != "true" ||
      Boolean(node.className && node.className.includes && node.className.includes("fallback-image")))
  );
}

const baseVisible = (Readability.prototype as unknown as ReadabilityInternals)._isProbablyVisible;
const nameSets = new Map<string, ReadonlySet<string>>();

/** Readability with the cheaper helpers; construct and parse it as the original. */
export class LinkedomReadability<T> extends Readability<T> {
  _getAllNodesWithTag(node: El & { querySelectorAll(selectors: string): ArrayLike<El> }, tagNames: string[]): ArrayLike<El> {
    const key = tagNames.join(",");
    let names = nameSets.get(key);
    if (!names) nameSets.set(key, (names = new Set(tagNames.map((t) => t.toLowerCase()))));
    return elementsNamed(node, names) ?? node.querySelectorAll(key);
  }

  /** The original's test, in an order that reads the node's text only when the rest passes. */
  _isValidByline(node: El, matchString: string): boolean {
    const rel = node.getAttribute("rel");
    const itemprop = node.getAttribute("itemprop");
    const self = this as unknown as ReadabilityInternals;
    if (!(rel === "author" || (itemprop && itemprop.includes("author")) || self.REGEXPS.byline.test(matchString))) return false;
    const bylineLength = node.textContent.trim().length;
    return !!bylineLength && bylineLength < 100;
  }

  _isProbablyVisible(node: El): boolean {
    return node.hasAttribute("style") ? baseVisible.call(this, node) : visibleUnstyled(node);
  }

  /**
   * parse() logs `"Grabbed: " + article.innerHTML` whether or not debug is on: while that line
   * runs, the article's innerHTML is an empty string (the serializer hands back the element).
   */
  _grabArticle(page?: unknown): El | null {
    const self = this as unknown as ReadabilityInternals;
    const article = (Readability.prototype as unknown as ReadabilityInternals)._grabArticle.call(this, page);
    if (article && !self._debug) Object.defineProperty(article, "innerHTML", { configurable: true, get: () => "" });
    return article;
  }

  _postProcessContent(article: El): void {
    delete (article as { innerHTML?: string }).innerHTML;
    (Readability.prototype as unknown as ReadabilityInternals)._postProcessContent.call(this, article);
  }
}
