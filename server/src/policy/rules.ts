/**
 * Approval rules: what "Yes, don't ask again" remembers, and the scopes an action is asked in.
 * A rule is deliberately narrow: a file tool under one directory, one program in this project,
 * one directory outside the project, or one tool that has neither a path nor a command. An
 * `mcp_server` rule is not an approval of any call: it lets one MCP server that a file inside the
 * project defines start, with exactly that command line (mcp/approval).
 */
import path from "node:path";
import type { PolicyClass } from "../vocabulary/policy.js";
import { isInside } from "../workspace/paths.js";
import { STATE_DIR } from "../workspace/state-dir.js";
import { SETTINGS_CHANGE_REASON, settingsScope } from "./agent-settings.js";

/** One remembered approval. Directories are absolute. */
export type ApprovalRule =
  | { kind: "file"; tool: string; dir: string }
  | { kind: "program"; program: string }
  | { kind: "external"; dir: string; access: "read" | "write" }
  | { kind: "tool"; tool: string }
  | { kind: "mcp_server"; name: string; command: string };

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
    case "mcp_server":
      return rule.kind === "mcp_server" && rule.name === wanted.name && rule.command === wanted.command;
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
    case "mcp_server":
      return `starting the MCP server ${JSON.stringify(rule.name)} as: ${rule.command}`;
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

/**
 * The scope of a tool that has neither a path nor a command to scope by. With `askEveryTime` (the
 * reason) it is never remembered: MCP access is asked each time in ask mode.
 */
export function toolScope(tool: string, policyClass: PolicyClass, askEveryTime?: string): Scope {
  const autoAllowed = policyClass === "read_only" || policyClass === "read_write";
  return askEveryTime ? { unremembered: askEveryTime, autoAllowed } : { rule: { kind: "tool", tool }, autoAllowed };
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
