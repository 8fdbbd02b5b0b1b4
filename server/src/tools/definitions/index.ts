/**
 * list_code_definition_names' parsers, chosen by file extension. Covered: TypeScript and
 * JavaScript, Python, Go, Rust, Java, C and C++, Ruby (see docs/tools.md).
 */
import path from "node:path";
import { C_CPP, GO, JAVA, parseBraceLanguage, RUST, TYPESCRIPT, type BraceLanguage } from "./brace-languages.js";
import { parsePython, parseRuby } from "./indent-languages.js";
import type { Definition, DefinitionParser } from "./types.js";

export type { Definition } from "./types.js";

const brace = (lang: BraceLanguage): DefinitionParser => (text) => parseBraceLanguage(text, lang);

/** Parsers by lower-case extension. */
const BY_EXTENSION: Record<string, DefinitionParser> = {
  ".ts": brace(TYPESCRIPT),
  ".tsx": brace(TYPESCRIPT),
  ".mts": brace(TYPESCRIPT),
  ".cts": brace(TYPESCRIPT),
  ".js": brace(TYPESCRIPT),
  ".jsx": brace(TYPESCRIPT),
  ".mjs": brace(TYPESCRIPT),
  ".cjs": brace(TYPESCRIPT),
  ".py": parsePython,
  ".pyi": parsePython,
  ".go": brace(GO),
  ".rs": brace(RUST),
  ".java": brace(JAVA),
  ".c": brace(C_CPP),
  ".h": brace(C_CPP),
  ".cc": brace(C_CPP),
  ".cpp": brace(C_CPP),
  ".cxx": brace(C_CPP),
  ".hh": brace(C_CPP),
  ".hpp": brace(C_CPP),
  ".hxx": brace(C_CPP),
  ".rb": parseRuby,
};

/** True when the file's language is covered. */
export function isSupportedSource(file: string): boolean {
  return path.extname(file).toLowerCase() in BY_EXTENSION;
}

/** The definitions of a source file, or undefined when its language is not covered. */
export function definitionsOf(file: string, text: string): Definition[] | undefined {
  const parser = BY_EXTENSION[path.extname(file).toLowerCase()];
  return parser ? parser(text) : undefined;
}
