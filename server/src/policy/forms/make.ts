/**
 * make runs the recipes of the makefiles it reads. Those in the project are the project's code (a
 * change to them is asked like any edit); a remembered `make` does not cover code given on its
 * command line (`--eval`, a makefile on standard input, a variable holding `$(shell ...)` or naming
 * a program) or makefiles and folders outside the project (checked by the judge).
 */
import path from "node:path";
import { namesProgram } from "./env-names.js";
import { readOptions } from "./options.js";

const LONG = ["eval", "file", "makefile", "directory", "include-dir", "jobs", "load-average", "old-file", "assume-old", "what-if", "new-file", "assume-new", "debug", "output-sync", "jobserver-auth", "jobserver-style", "shuffle"];
const LONG_VALUE = ["eval", "file", "makefile", "directory", "include-dir", "old-file", "assume-old", "what-if", "new-file", "assume-new"];

/** A make command line: why it may never be remembered, and the makefiles and folders it works in. */
export interface MakeForm {
  never?: string;
  places: { word: string; what: string }[];
}

/** Reads `make ARGS`. */
export function makeForm(args: readonly string[]): MakeForm {
  const places: MakeForm["places"] = [];
  // make changes to every -C folder (in turn) before it reads a makefile: -f and -I are relative to that.
  const files: MakeForm["places"] = [];
  const dirs: string[] = [];
  for (const arg of readOptions(args, { shortValue: "CEfIoWj", long: LONG, longValue: LONG_VALUE })) {
    if (arg.kind === "operand") {
      const why = variableReason(arg.word);
      if (why) return { never: why, places };
      continue;
    }
    if (arg.name === "-E" || arg.name === "--eval") return { never: '"make --eval" is never remembered: it runs the makefile text it is given', places };
    const value = arg.value ?? "";
    if (/^(-f|--file|--makefile)$/.test(arg.name)) {
      if (value === "-" || value.startsWith("/dev/") || value.startsWith("/proc/")) return { never: '"make -f -" is never remembered: it runs a makefile from its input', places };
      files.push({ word: value, what: "make -f" });
    }
    if (/^(-C|--directory)$/.test(arg.name)) {
      dirs.push(value);
      places.push({ word: path.join(...dirs), what: "make -C" });
    }
    if (/^(-I|--include-dir)$/.test(arg.name)) files.push({ word: value, what: "make -I" });
  }
  const inDir = (word: string) => (dirs.length && !/^([/~]|\$HOME)/.test(word) ? path.join(...dirs, word) : word);
  return { places: [...places, ...files.map((f) => ({ ...f, word: inDir(f.word) }))] };
}

/** `NAME=value` on make's command line: code when it names a program or holds a make function. */
function variableReason(word: string): string | undefined {
  const m = /^([^=:+?!]+)(?::{0,3}|\+|\?|!)=([\s\S]*)$/.exec(word);
  if (!m) return undefined;
  const name = m[1]!.trim();
  if (namesProgram(name) || /^\.?SHELL(FLAGS)?$/.test(name)) return `"make ${name}=" is never remembered: it names a program or code make runs`;
  if (/\$[({]/.test(m[2]!)) return `"make ${name}=" with $(...) is never remembered: make runs the functions it holds ($(shell ...))`;
  return undefined;
}
