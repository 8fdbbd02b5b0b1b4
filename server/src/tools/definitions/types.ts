/**
 * What the definition parsers report: the top-level functions, classes (and similar) of a file,
 * and the methods directly inside its classes. Line-based and regex-driven by design: fast, no
 * dependency, and good enough for a model to find its way around a file before reading it.
 */

/** One definition. */
export interface Definition {
  /** 1-based line. */
  line: number;
  /** The line as written, trimmed (what the model sees). */
  text: string;
  /** 0: top level; 1: a member (method) of a top-level class. */
  depth: 0 | 1;
}

/** A parser for one language family. */
export type DefinitionParser = (text: string) => Definition[];
