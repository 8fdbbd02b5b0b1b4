/**
 * The symlinks inside a folder that lead out of the project: what a recursive read that follows
 * links (`grep -R`, `rg -L`, `tar -h`) reaches besides the folder itself. Links to folders inside
 * the project are followed (a chain may leave later); the walk stops at a budget of entries.
 */
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../workspace/paths.js";

/** Where the links found lead (real paths outside `realRoot`), or that the folder was too large to tell. */
export type LinkScan = { leaving: string[] } | { tooLarge: true };

/** How many folder entries a scan may read. */
export const LINK_SCAN_BUDGET = 20_000;

/** Scans `folder` (a real path) for symlinks whose target is outside `realRoot`. */
export async function linksLeaving(folder: string, realRoot: string, budget = LINK_SCAN_BUDGET): Promise<LinkScan> {
  const leaving = new Set<string>();
  const visited = new Set([folder]);
  const pending = [folder];
  let entries = 0;
  while (pending.length) {
    const dir = pending.pop()!;
    const dirents = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries += dirents.length;
    if (entries > budget) return { tooLarge: true };
    for (const d of dirents) {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) pending.push(full);
      if (!d.isSymbolicLink()) continue;
      // A dangling link reads nothing.
      const target = await realpath(full).catch(() => undefined);
      if (target === undefined) continue;
      if (!isInside(realRoot, target)) leaving.add(target);
      else if (!visited.has(target) && (await stat(target).catch(() => undefined))?.isDirectory()) {
        visited.add(target);
        pending.push(target);
      }
    }
  }
  return { leaving: [...leaving] };
}
