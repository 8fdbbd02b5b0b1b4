/**
 * The branch a repository has checked out, and where the repository starts, read from `.git`
 * without running git: the floors need them for a `git push --force` that names no branch and for
 * `rm -rf "$(git rev-parse --show-toplevel)"`, and must not spawn anything to decide.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The checked-out branch of the repository containing `dir`; undefined when detached or unknown. */
export function currentBranch(dir: string): string | undefined {
  const gitDir = findRepository(dir)?.gitDir;
  if (!gitDir) return undefined;
  const head = readText(path.join(gitDir, "HEAD"));
  const m = head && /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(head);
  return m ? m[1] : undefined;
}

/** The top folder of the working tree containing `dir` (what `git rev-parse --show-toplevel` prints). */
export function repositoryTop(dir: string): string | undefined {
  return findRepository(dir)?.top;
}

/**
 * The working tree containing `dir`: its top folder, and its git directory (`.git` itself, or
 * where a `.git` file of a worktree points; undefined when that file cannot be read).
 */
function findRepository(dir: string): { top: string; gitDir?: string } | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const dotGit = path.join(d, ".git");
    const kind = statKind(dotGit);
    if (kind === "dir") return { top: d, gitDir: dotGit };
    if (kind === "file") {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "");
      return { top: d, gitDir: m ? path.resolve(d, m[1]!) : undefined };
    }
    if (path.dirname(d) === d) return undefined;
  }
}

function statKind(p: string): "dir" | "file" | undefined {
  try {
    const st = statSync(p);
    return st.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
}
