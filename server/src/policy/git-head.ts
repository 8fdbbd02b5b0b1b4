/**
 * The branch a repository has checked out, read from `.git/HEAD` without running git: the floors
 * need it for a `git push --force` that names no branch, and must not spawn anything to decide.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The checked-out branch of the repository containing `dir`; undefined when detached or unknown. */
export function currentBranch(dir: string): string | undefined {
  const gitDir = findGitDir(dir);
  if (!gitDir) return undefined;
  const head = readText(path.join(gitDir, "HEAD"));
  const m = head && /^ref:\s*refs\/heads\/(.+?)\s*$/m.exec(head);
  return m ? m[1] : undefined;
}

/** The git directory for `dir`: `.git` itself, or where a `.git` file (worktree) points. */
function findGitDir(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const dotGit = path.join(d, ".git");
    const kind = statKind(dotGit);
    if (kind === "dir") return dotGit;
    if (kind === "file") {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "");
      return m ? path.resolve(d, m[1]!) : undefined;
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
