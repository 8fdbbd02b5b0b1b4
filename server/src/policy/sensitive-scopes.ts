/**
 * Where sensitive locations meet approval scopes. One place turns a path into its sensitive scope,
 * strips the rule from any scope whose folder is sensitive (so "don't ask again" can never be
 * remembered for ~/.ssh or the home folder, whoever built the scope), and keeps rules that would
 * grant a sensitive location from covering anything.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { isInside, realpathOfNearest } from "../workspace/paths.js";
import type { ApprovalRule, Scope } from "./rules.js";
import { sensitiveHeadline, sensitivityOf, tildePath, type SensitivePlaces } from "./sensitive.js";

/** What an action does at a path. */
export type PathAccess = "read" | "write" | "run";

/**
 * The sensitive scope of `abs`, judged by its name and by where it really is (a link in the
 * project may lead to ~/.ssh). Inside the project only credential places count: the project may
 * be the home folder itself, and its ordinary files are the project's.
 */
export async function sensitiveScopeOf(abs: string, access: PathAccess, places: SensitivePlaces, root: string): Promise<Scope | undefined> {
  const real = await realpathOfNearest(abs);
  const type = (await stat(real).catch(() => undefined))?.isDirectory() ? "folder" : "file";
  for (const p of real === abs ? [abs] : [abs, real]) {
    const s = sensitivityOf(p, places, type);
    if (!s || (s.kind !== "credential" && isInside(root, p))) continue;
    return {
      unremembered: `${s.what} (${tildePath(p, places.home)}) is always asked`,
      autoAllowed: false,
      sensitive: { headline: sensitiveHeadline(p, access, s, places.home), kind: s.kind, path: p },
    };
  }
  return undefined;
}

/** The paths of `paths` that are sensitive, each with its scope. */
export async function sensitiveScopes(
  paths: readonly string[],
  access: PathAccess,
  places: SensitivePlaces,
  root: string,
): Promise<{ path: string; scope: Scope }[]> {
  const found = await Promise.all(paths.map(async (p) => ({ path: p, scope: await sensitiveScopeOf(p, access, places, root) })));
  return found.filter((f): f is { path: string; scope: Scope } => f.scope !== undefined);
}

/**
 * The scopes with every rule for a sensitive folder removed: such a part is asked every time.
 * A scope that named a sensitive folder becomes a sensitive scope of its own, unless a sensitive
 * path inside that folder is asked already (one headline per place, not two).
 */
export function guardScopes(scopes: readonly Scope[], places: SensitivePlaces): Scope[] {
  const asked = scopes.flatMap((s) => (s.sensitive ? [s.sensitive.path] : []));
  return scopes.flatMap((scope) => {
    const dir = ruleDir(scope.rule);
    const s = dir === undefined ? undefined : sensitivityOf(dir, places, "folder");
    if (!s || dir === undefined) return [scope];
    if (asked.some((p) => isInside(dir, p))) return [];
    const access: PathAccess = scope.rule?.kind === "external" && scope.rule.access === "read" ? "read" : "write";
    return [
      {
        unremembered: `${s.what} (${tildePath(dir, places.home)}) is always asked`,
        autoAllowed: false,
        sensitive: { headline: sensitiveHeadline(dir, access, s, places.home), kind: s.kind, path: dir },
      },
    ];
  });
}

/** False for a rule that would grant a sensitive location wholesale (it covers nothing). */
export function ruleIsUsable(rule: ApprovalRule, places: SensitivePlaces): boolean {
  const dir = ruleDir(rule);
  return dir === undefined || sensitivityOf(dir, places, "folder") === undefined;
}

function ruleDir(rule: ApprovalRule | undefined): string | undefined {
  return rule && (rule.kind === "external" || rule.kind === "file") ? path.normalize(rule.dir) : undefined;
}
