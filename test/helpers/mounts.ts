/**
 * Real file-system faults for tests: a small tmpfs to fill (a full disk) and a read-only bind
 * mount (a read-only checkout). Mounting needs root (CI runs as root, `.ci/run`); where the
 * kernel refuses it, `MOUNT_PROBLEM` says why and the suites skip, except under
 * AGENT_LSP_REQUIRE_ALL=1, where a skipped fault is a failure.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Why this process may not mount, or undefined when it may. */
export const MOUNT_PROBLEM = probe();

function probe(): string | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "pipe" });
    execFileSync("umount", [dir], { stdio: "pipe" });
    return undefined;
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return `mounting a tmpfs is not permitted here (${stderr || (err as Error).message})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mounts a tmpfs of `size` (`2m`, `256k`) on `dir` (made when missing); returns the unmount. */
export function mountTmpfs(dir: string, size: string): () => void {
  mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", dir], { stdio: "pipe" });
  return () => unmount(dir);
}

/** Mounts `source` read-only on `target` (a bind mount made read-only); returns the unmount. */
export function bindReadOnly(source: string, target: string): () => void {
  mkdirSync(target, { recursive: true });
  execFileSync("mount", ["--bind", source, target], { stdio: "pipe" });
  try {
    execFileSync("mount", ["-o", "remount,ro,bind", target], { stdio: "pipe" });
  } catch (err) {
    unmount(target);
    throw err;
  }
  return () => unmount(target);
}

/** Fills the file system of `dir` to the last byte with a file named `filler`; returns its path. */
export function fill(dir: string): string {
  const file = path.join(dir, "filler");
  const fd = openSync(file, "w");
  const block = Buffer.alloc(64 * 1024, 0x61);
  try {
    for (let size = block.length; size >= 1; ) {
      try {
        writeSync(fd, block, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
        size = Math.floor(size / 2); // the last pages: smaller writes until not one byte fits
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

function unmount(dir: string): void {
  // Lazy: a server under test may still hold a file open there.
  execFileSync("umount", ["-l", dir], { stdio: "pipe" });
}
