/**
 * Zod schemas built on first use. Building a schema costs real time (every `.describe()`,
 * `.optional()` and `.min()` makes a new object), and the modules that declare the tools' inputs
 * are all loaded before a new session can be answered although no tool is called until a turn
 * runs. A schema declared through {@link lazySchema} is built the first time anything reads it
 * and is the same schema from then on.
 */
import type { z } from "zod";

const BUILT = Symbol("agent-lsp.lazySchema");

/**
 * A schema that stands for `build()`: every property read (`safeParse`, `shape`, `_zod`...) is
 * read from the schema, built once on the first read. Its type is the schema's, so
 * `z.infer<typeof schema>` and nesting in other schemas work unchanged.
 */
export function lazySchema<S extends z.ZodType>(build: () => S): S {
  let built: S | undefined;
  const schema = () => (built ??= build());
  return new Proxy({} as S, {
    get: (_target, key) => (key === BUILT ? schema() : Reflect.get(schema(), key)),
    has: (_target, key) => key === BUILT || Reflect.has(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}

/**
 * The schema itself behind a {@link lazySchema} (built now if it was not), else `schema`: for
 * code that keys maps by the schema object (JSON Schema conversion, zod's metadata registry).
 */
export function builtSchema<S extends z.ZodType>(schema: S): S {
  return BUILT in schema ? ((schema as unknown as Record<symbol, S>)[BUILT] as S) : schema;
}
