/** The three ways the schema declares a key: with a default, optional, or a table of keys; each carries its docs. */
import { z } from "zod";

/** What the docs say of a key: its type in words, its default as shown, and what it means. */
export interface KeyDoc {
  type: string;
  doc: string;
  /** The default as the docs show it, when not the value itself (e.g. "the API's own"). */
  shown?: string;
}

/** One key: its schema as a file writes it, its default, and its docs. */
export function key<T extends z.ZodType>(schema: T, value: z.output<T>, type: string, doc: string) {
  return schema.default(value as never).meta({ type, doc } satisfies KeyDoc);
}

/** A key without a default (provider tables: what is not written is not there). */
export function optional<T extends z.ZodType>(schema: T, type: string, doc: string, shown = "none") {
  return schema.optional().meta({ type, doc, shown } satisfies KeyDoc);
}

/** A table of keys; its defaults apply when the table is absent. */
export function table<T extends z.ZodRawShape>(shape: T) {
  // prefault, not default: the empty table is parsed, so its keys' own defaults fill it.
  return z.object(shape).strict().prefault({} as never);
}

/** `build`, run the first time it is asked for and remembered: a table of the schema is built only when a layer sets it (or the whole schema is asked for). */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
