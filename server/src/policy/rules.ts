/**
 * Approval rules: what "Yes, don't ask again" remembers, and the scopes an action is asked in.
 * A rule is deliberately narrow: a file tool under one directory, one program in this project,
 * one directory outside the project, or one tool that has neither a path nor a command.
 */
import path from "node:path";
import type { PolicyClass } from "../tools/types.js";
import { isInside } from "../workspace/paths.js";
import { STATE_DIR } from "../workspace/state-dir.js";
import { SETTINGS_CHANGE_REASON, settingsScope } from "./agent-settings.js";
import { basename, cdTarget, effectiveWords, expandHome, parseCommandLine, type SimpleCommand } from "./command-line.js";
import { neverRememberedReason } from "./launchers.js";

/** One remembered approval. Directories are absolute. */
export type ApprovalRule =
  | { kind: "file"; tool: string; dir: string }
  | { kind: "program"; program: string }
  | { kind: "external"; dir: string; access: "read" | "write" }
  | { kind: "tool"; tool: string };

/** One part of an action that needs approval. */
export interface Scope {
  /** What "don't ask again" remembers for this part; absent when it may never be remembered. */
  rule?: ApprovalRule;
  /** Why it cannot be remembered, in words for the user. */
  unremembered?: string;
  /** In auto mode this part runs without the classifier (in-root edits, local state). */
  autoAllowed: boolean;
  /**
   * Set for a sensitive location (policy/sensitive.ts): asked every time, by the user even in
   * auto mode; `headline` opens the prompt ("Read a credential file: ~/.ssh/config").
   */
  sensitive?: { headline: string; kind: "credential" | "home" | "system"; path: string };
}

/** True when `rule` grants what `wanted` asks for. */
export function ruleCovers(rule: ApprovalRule, wanted: ApprovalRule): boolean {
  switch (wanted.kind) {
    case "file":
      return rule.kind === "file" && rule.tool === wanted.tool && isInside(rule.dir, wanted.dir);
    case "program":
      return rule.kind === "program" && rule.program === wanted.program;
    case "external":
      return (
        rule.kind === "external" && isInside(rule.dir, wanted.dir) && (rule.access === "write" || wanted.access === "read")
      );
    case "tool":
      return rule.kind === "tool" && rule.tool === wanted.tool;
  }
}

/** True when the same rule (ignoring order of keys). */
export function sameRule(a: ApprovalRule, b: ApprovalRule): boolean {
  return ruleCovers(a, b) && ruleCovers(b, a);
}

/** A rule in words, for status updates and the docs' examples. */
export function describeRule(rule: ApprovalRule): string {
  switch (rule.kind) {
    case "file":
      return `${rule.tool} under ${rule.dir}`;
    case "program":
      return `the program "${rule.program}"`;
    case "external":
      return `${rule.access === "write" ? "reading and writing" : "reading"} under ${rule.dir}`;
    case "tool":
      return `the tool ${rule.tool}`;
  }
}

/**
 * Scopes of a file change: that tool under each file's directory, plus each outside directory.
 * A change to agent-lsp's own settings (`.agent-lsp/`, where config and approvals live) is asked
 * every time, even in auto mode: a model must not grant itself permissions.
 */
export function fileChangeScopes(tool: string, root: string, paths: readonly string[]): Scope[] {
  // A change that only creates folders names no file: the rule then covers the whole project.
  const dirs = paths.length ? paths.map((p) => path.dirname(path.resolve(root, p))) : [root];
  const settings = path.join(root, STATE_DIR);
  const scopes: Scope[] = unique(dirs).map((dir) =>
    isInside(settings, dir)
      ? settingsScope(SETTINGS_CHANGE_REASON, `Change agent-lsp's own settings: ${path.relative(root, dir) || "."}/`, settings)
      : { rule: { kind: "file", tool, dir }, autoAllowed: true },
  );
  for (const dir of unique(dirs.filter((d) => !isInside(root, d)))) scopes.push(externalScope(dir, "write"));
  return uniqueScopes(scopes);
}

/** The scope of a path outside the project (its directory, or itself when it is one). */
export function externalScope(dir: string, access: "read" | "write"): Scope {
  return { rule: { kind: "external", dir, access }, autoAllowed: false };
}

/** Where a command line starts, for scoping what it does outside the project. */
export interface CommandPlace {
  /** Absolute folder the line starts in. */
  cwd: string;
  root: string;
  home: string;
}

/**
 * Scopes of a command line: one per program it runs (`npm test && npm run lint` is "npm"), so a
 * remembered program never approves a line that also runs something else. Lines that hide a
 * command (substitution) or hand one to a launcher (`bash -c`, `xargs`, `python`, `npx`) are never remembered.
 * With `place`, a program rule holds in this project only: running in a folder outside it (from
 * the start or after a `cd`) or redirecting output to a file outside it adds that folder's scope.
 */
export function commandScopes(command: string, place?: CommandPlace): Scope[] {
  const line = parseCommandLine(command);
  const scopes: Scope[] = [];
  const elsewhere: Scope[] = [];
  if (line.opaque) {
    scopes.push({ unremembered: "a command with $(...) or backticks is never remembered", autoAllowed: false });
  }
  let cwd = place?.cwd;
  for (const cmd of line.commands) {
    if (place) elsewhere.push(...outsideScopes(cmd, cwd, place));
    if (place && cwd !== undefined) cwd = followCd(cmd, cwd, place.home);
    const program = effectiveWords(cmd.words)[0];
    if (program === undefined) continue;
    const never = neverRememberedReason(cmd);
    if (never) scopes.push({ unremembered: never, autoAllowed: false });
    else scopes.push({ rule: { kind: "program", program: basename(program) }, autoAllowed: false });
  }
  if (!scopes.length) scopes.push({ unremembered: "an empty command", autoAllowed: false });
  return uniqueScopes([...scopes, ...elsewhere]);
}

/** Files output may always go to: they are no place on disk. */
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** What a simple command does outside the project: run there (`cwd` undefined: unknown), write there. */
function outsideScopes(cmd: SimpleCommand, cwd: string | undefined, place: CommandPlace): Scope[] {
  if (cwd === undefined) return [{ unremembered: "commands after a cd to a folder only the shell knows are never remembered", autoAllowed: false }];
  const out: Scope[] = [];
  if (!isInside(place.root, cwd)) out.push(externalScope(cwd, "write"));
  for (const r of cmd.redirects) {
    // `2>&1`, `>&-`: descriptors, not files.
    if (!r.op.includes(">") || (r.op.endsWith("&") && /^(\d+|-)$/.test(r.target))) continue;
    const target = expandHome(r.target, place.home);
    if (HARMLESS_TARGETS.test(target)) continue;
    if (/[$`*?[]/.test(target)) {
      out.push({ unremembered: "output redirected to a file only the shell can name is never remembered", autoAllowed: false });
      continue;
    }
    const abs = path.resolve(cwd, target);
    if (!isInside(place.root, abs)) out.push(externalScope(path.dirname(abs), "write"));
  }
  return out;
}

/** Where a `cd` leaves the rest of the line; undefined when only the shell knows (`cd "$DIR"`). */
function followCd(cmd: SimpleCommand, cwd: string, home: string): string | undefined {
  const target = cdTarget(cmd, home);
  if (target === undefined) return cwd;
  return /[$`*?[]/.test(target) ? undefined : path.resolve(cwd, target);
}

/** The scope of a tool that has neither a path nor a command to scope by. */
export function toolScope(tool: string, policyClass: PolicyClass): Scope {
  return { rule: { kind: "tool", tool }, autoAllowed: policyClass === "read_only" || policyClass === "read_write" };
}

/** The scope of a mutating tool with a path in the project: that tool under that directory. */
export function toolPathScope(tool: string, policyClass: PolicyClass, dir: string): Scope {
  return { rule: { kind: "file", tool, dir }, autoAllowed: policyClass === "read_only" || policyClass === "read_write" };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/** The scopes without repeats (the same rule, or the same reason it is never remembered). */
export function uniqueScopes(scopes: readonly Scope[]): Scope[] {
  const seen = new Set<string>();
  return scopes.filter((s) => {
    const key = JSON.stringify(s.rule ?? s.unremembered);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
