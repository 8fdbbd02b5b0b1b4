/**
 * Readability (0.6.0, pinned) on linkedom, with some of its helpers replaced by ones that give the
 * same answers on linkedom for less work. On the bench's 2 MB article these helpers were most of
 * readability's time: `_getAllNodesWithTag` went through `querySelectorAll`, which compiles its
 * selector through css-select on every call (once per paragraph in `_prepArticle`);
 * `_isValidByline` read the whole `textContent` of every node it was asked about before looking at
 * the cheap tests (the <html> element's first: the whole page); `_isProbablyVisible` built a
 * CSSStyleDeclaration for every element; `parse()` serialized the article to HTML only to
 * build a debug message it then drops; and `_grabArticle` serialized the whole body first, to
 * restore it if its first try finds too little text (see `_grabArticle` below).
 * test/unit/web/readable-html.test.ts runs the stock
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
  _disableJSONLD: boolean;
  _doc: { body: El | null };
  _unwrapNoscriptImages(doc: unknown): void;
  _getJSONLD(doc: unknown): unknown;
  _removeScripts(doc: unknown): void;
  _prepDocument(): void;
  _getArticleMetadata(jsonLd: unknown): unknown;
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

const nameSets = new Map<string, ReadonlySet<string>>();

type Options<T> = ConstructorParameters<typeof Readability<T>>[1];
type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

const base = Readability.prototype as unknown as ReadabilityInternals;
/** What the body's innerHTML reads as while `_grabArticle` runs, in place of the body's HTML. */
const BODY_NOT_SERIALIZED = "\u0000agent-lsp: the body as _grabArticle found it\u0000";

/**
 * Readability with the cheaper helpers; construct and parse it as the original. `reparse`, when
 * given, returns a new document parsed as the one given was (so the body's HTML need only be
 * made when readability has to go back to it).
 */
export class LinkedomReadability<T> extends Readability<T> {
  private readonly reparse?: () => ReadabilityDocument;
  private readonly options?: Options<T>;
  private bodyHtml?: string;

  constructor(document: ReadabilityDocument, options?: Options<T>, reparse?: () => ReadabilityDocument) {
    super(document, options);
    this.options = options;
    this.reparse = reparse;
  }

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
    return node.hasAttribute("style") ? base._isProbablyVisible.call(this, node) : visibleUnstyled(node);
  }

  /**
   * `_grabArticle` begins with `pageCacheHtml = page.innerHTML` (a 2 MB string for the bench's
   * page) and uses it only when a try finds too little text: `page.innerHTML = pageCacheHtml`
   * puts the body back before the next try. Here the first read gets a marker instead; should the
   * marker be written back, the body's HTML is made then, as it was: the page parsed again and
   * put through the same steps parse() takes before `_grabArticle`.
   *
   * parse() then logs `"Grabbed: " + article.innerHTML` whether or not debug is on: while that
   * line runs, the article's innerHTML is an empty string (the serializer hands back the element).
   */
  _grabArticle(page?: unknown): El | null {
    const self = this as unknown as ReadabilityInternals;
    const body = page === undefined && this.reparse && !self._debug ? self._doc.body : null;
    if (body) {
      const inner = findAccessor(body, "innerHTML");
      Object.defineProperty(body, "innerHTML", {
        configurable: true,
        get: () => BODY_NOT_SERIALIZED,
        set: (html: string) => inner.set!.call(body, html === BODY_NOT_SERIALIZED ? this.bodyBeforeGrab() : html),
      });
    }
    try {
      const article = base._grabArticle.call(this, page);
      if (article && !self._debug) Object.defineProperty(article, "innerHTML", { configurable: true, get: () => "" });
      return article;
    } finally {
      if (body) delete (body as { innerHTML?: string }).innerHTML;
    }
  }

  _postProcessContent(article: El): void {
    delete (article as { innerHTML?: string }).innerHTML;
    base._postProcessContent.call(this, article);
  }

  /** The body's HTML as `_grabArticle` would have read it at its start: parse()'s first steps on a new parse. */
  private bodyBeforeGrab(): string {
    if (this.bodyHtml !== undefined) return this.bodyHtml;
    const doc = this.reparse!();
    const fresh = new LinkedomReadability(doc, this.options) as unknown as ReadabilityInternals;
    fresh._unwrapNoscriptImages(doc);
    const jsonLd = fresh._disableJSONLD ? {} : fresh._getJSONLD(doc);
    fresh._removeScripts(doc);
    fresh._prepDocument();
    fresh._getArticleMetadata(jsonLd);
    return (this.bodyHtml = (doc as unknown as { body: { innerHTML: string } }).body.innerHTML);
  }
}

/** The accessor `name` as `node`'s prototype chain defines it. */
function findAccessor(node: object, name: string): PropertyDescriptor {
  for (let proto = Object.getPrototypeOf(node); proto; proto = Object.getPrototypeOf(proto)) {
    const found = Object.getOwnPropertyDescriptor(proto, name);
    if (found) return found;
  }
  throw new Error(`no ${name} accessor`);
}
