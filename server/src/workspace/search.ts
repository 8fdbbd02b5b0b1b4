/**
 * Regex search over file contents, for search_files. Each file is first tested as a whole (one
 * regex run over the text, which rejects most files at native speed); only files that match are
 * split into lines to find the matching line numbers and their context. Open documents are
 * searched as the editor has them, unsaved text included. When ripgrep is installed it finds the
 * candidate files (search-rg.ts); this walk is the engine otherwise, and the reference for it.
 */
import { collector, considerUnsavedDocuments, FileReader, textForSearch, type SearchOptions, type SearchOutcome } from "./search-collect.js";
import { requiredLiteral } from "./literal.js";
import { searchWithRipgrep } from "./search-rg.js";
import { walk } from "./walk.js";

export type { FileHits, SearchLine, SearchOptions, SearchOutcome } from "./search-collect.js";

/** Searches every file below `start` that .gitignore and `filter` let through, in process. */
export async function searchInProcess(opts: SearchOptions): Promise<SearchOutcome> {
  const c = collector(opts);
  const literalText = requiredLiteral(opts.regex);
  const literal = literalText === undefined ? undefined : Buffer.from(literalText, "utf8");
  const reader = new FileReader();
  const seen = new Set<string>();
  await walk({ base: opts.base, start: opts.start, recursive: true, signal: opts.signal }, (entry) => {
    // A link out of the project is not searched: its content is not the project's to show.
    if (entry.isDir || entry.outside || (opts.filter && !opts.filter(entry.rel))) return;
    const open = opts.overlay.size ? opts.overlay.get(entry.abs) : undefined;
    if (opts.overlay.size) seen.add(entry.abs);
    return c.consider(entry.rel, open ?? textForSearch(reader, entry.abs, literal));
  });
  considerUnsavedDocuments(opts, seen, c);
  return c.out;
}

/**
 * Searches every file below `start` that .gitignore and `filter` let through: with ripgrep
 * finding the candidates when it is on PATH and can take the pattern, in process otherwise.
 */
export async function searchFiles(opts: SearchOptions): Promise<SearchOutcome> {
  return (await searchWithRipgrep(opts)) ?? searchInProcess(opts);
}
