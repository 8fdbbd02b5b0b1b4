/**
 * The folders each simple command of a line may run in, following its `cd`s the way the shell
 * does: a `cd` in a subshell, a pipeline or a substitution stays there; one after `&&` may or may
 * not have happened (both folders count); one in a loop or a function leaves the folder to the
 * shell alone. Pure: paths are resolved by name (as `cd` does by default), the disk is not read.
 */
import path from "node:path";
import { cdTarget, UNKNOWN_FOLDER, type CommandLine, type Flow, type SimpleCommand } from "../command-line.js";

/** The folders a command may run in, absolute; undefined when only the shell knows. */
export type Folders = readonly string[] | undefined;

/** More possible folders than this and the line counts as "only the shell knows". */
const MAX_FOLDERS = 8;

/** Where each command of `line` may run, starting in `start` (undefined: only the shell knows). */
export function commandFolders(line: CommandLine, start: Folders, home: string): Map<SimpleCommand, Folders> {
  const out = new Map<SimpleCommand, Folders>();
  walk(line.flow, start, home, out);
  return out;
}

function walk(flow: Flow, folders: Folders, home: string, out: Map<SimpleCommand, Folders>): Folders {
  switch (flow.kind) {
    case "run":
      out.set(flow.command, folders);
      return afterCd(flow.command, folders, home);
    case "all":
      return flow.flows.reduce<Folders>((f, next) => walk(next, f, home, out), folders);
    case "maybe":
      return union(folders, walk(flow.flow, folders, home, out));
    case "either": {
      const ends = flow.flows.map((f) => walk(f, folders, home, out));
      return ends.length ? ends.reduce<Folders>((a, b) => union(a, b), []) : folders;
    }
    case "apart":
      walk(flow.flow, folders, home, out);
      return folders;
    case "loop": {
      const after = walk(flow.flow, folders, home, out);
      if (same(after, folders)) return folders;
      // A cd that moves on each pass (`cd ..` in a loop): only the shell knows where it ends.
      walk(flow.flow, undefined, home, out);
      return undefined;
    }
    case "function":
      // Run whenever it is called, from wherever: its commands' folder is the shell's to know,
      // and so is the folder after any call of a function that changes it.
      walk(flow.flow, undefined, home, out);
      return changesFolder(flow.flow) ? undefined : folders;
  }
}

/** The folders after `cmd` when it is a `cd` (or `pushd`, `popd`). */
function afterCd(cmd: SimpleCommand, folders: Folders, home: string): Folders {
  const target = cdTarget(cmd, home);
  if (target === undefined || folders === undefined) return folders;
  if (target === UNKNOWN_FOLDER || /[$`*?[]/.test(target)) return undefined;
  return [...new Set(folders.map((f) => path.resolve(f, target)))];
}

function changesFolder(flow: Flow): boolean {
  switch (flow.kind) {
    case "run":
      return cdTarget(flow.command, "/") !== undefined;
    case "all":
    case "either":
      return flow.flows.some(changesFolder);
    default:
      return changesFolder(flow.flow);
  }
}

function union(a: Folders, b: Folders): Folders {
  if (a === undefined || b === undefined) return undefined;
  const all = [...new Set([...a, ...b])];
  return all.length > MAX_FOLDERS ? undefined : all;
}

function same(a: Folders, b: Folders): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((f) => b.includes(f));
}
