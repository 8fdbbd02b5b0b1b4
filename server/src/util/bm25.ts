/**
 * BM25 ranking over small documents with weighted fields (BM25F: a term in a heavier field counts
 * as several occurrences), with prefix matching: a query word also finds the words it starts
 * (`iss` finds `issue` and `issues`), at a lower weight than an exact match. The index is built
 * once per catalog; a query touches only the postings of its words.
 */

/** A document: an id and its fields' text. */
export interface Bm25Doc {
  id: string;
  fields: Record<string, string>;
}

/** Ranking settings. */
export interface Bm25Options {
  /** Term-frequency saturation (1.5 by default). */
  k1?: number;
  /** Length normalisation (0.75 by default). */
  b?: number;
  /** Weight of each field (fields not named weigh 1). */
  weights?: Record<string, number>;
  /** What a prefix match is worth beside an exact one (0 turns prefix matching off). */
  prefixWeight?: number;
}

/** One hit. */
export interface Bm25Hit {
  id: string;
  score: number;
}

const STOPWORDS = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on", "or", "the", "to", "with"]);

/** Lowercase words of `text`: split at non-alphanumerics and camelCase humps, stopwords left out. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOPWORDS.has(w));
}

/** An index of documents. */
export class Bm25Index {
  private readonly ids: string[];
  private readonly lengths: Float64Array;
  private readonly avgLength: number;
  /** Term -> (document index, weighted frequency) pairs. */
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  /** Every term, sorted, for prefix lookups. */
  private readonly vocabulary: string[];
  private readonly k1: number;
  private readonly b: number;
  private readonly prefixWeight: number;

  constructor(docs: readonly Bm25Doc[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.5;
    this.b = options.b ?? 0.75;
    this.prefixWeight = options.prefixWeight ?? 0.6;
    this.ids = docs.map((d) => d.id);
    this.lengths = new Float64Array(docs.length);
    docs.forEach((doc, i) => this.add(doc, i, options.weights ?? {}));
    const total = this.lengths.reduce((a, b) => a + b, 0);
    this.avgLength = docs.length ? total / docs.length || 1 : 1;
    this.vocabulary = [...this.postings.keys()].sort();
  }

  /** Number of documents. */
  get size(): number {
    return this.ids.length;
  }

  /** The best `limit` documents for `query` that pass `accept`, best first (ties by id). */
  search(query: string, limit: number, accept: (id: string) => boolean = () => true): Bm25Hit[] {
    const scores = new Map<number, number>();
    for (const word of new Set(tokenize(query))) {
      for (const [term, factor] of this.expand(word)) this.score(term, factor, scores);
    }
    const hits: Bm25Hit[] = [];
    for (const [doc, score] of scores) if (accept(this.ids[doc]!)) hits.push({ id: this.ids[doc]!, score });
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, limit);
  }

  private add(doc: Bm25Doc, index: number, weights: Record<string, number>): void {
    const tf = new Map<string, number>();
    let length = 0;
    for (const [field, text] of Object.entries(doc.fields)) {
      const w = weights[field] ?? 1;
      for (const term of tokenize(text)) {
        tf.set(term, (tf.get(term) ?? 0) + w);
        length += w;
      }
    }
    this.lengths[index] = length;
    for (const [term, f] of tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push({ doc: index, tf: f });
    }
  }

  /** The index terms `word` matches: itself at full weight, longer words it starts at the prefix weight. */
  private expand(word: string): [string, number][] {
    const out: [string, number][] = this.postings.has(word) ? [[word, 1]] : [];
    if (this.prefixWeight <= 0 || word.length < 2) return out;
    for (let i = lowerBound(this.vocabulary, word); i < this.vocabulary.length; i++) {
      const term = this.vocabulary[i]!;
      if (!term.startsWith(word)) break;
      if (term !== word) out.push([term, this.prefixWeight]);
    }
    return out;
  }

  private score(term: string, factor: number, scores: Map<number, number>): void {
    const list = this.postings.get(term)!;
    const n = this.ids.length;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const { doc, tf } of list) {
      const norm = tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / this.avgLength);
      scores.set(doc, (scores.get(doc) ?? 0) + factor * idf * ((tf * (this.k1 + 1)) / norm));
    }
  }
}

/** The first index of `sorted` whose value is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
