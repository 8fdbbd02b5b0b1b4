/**
 * The server's private sandbox folder (one per process, in the system's temporary folder, mode
 * 700): the empty file that covers hidden files (mode 000, so a read is refused rather than
 * finding nothing), and the network proxy's sockets. Removed at exit; a server that was killed
 * (SIGKILL, a crash) cannot, so its folder carries its pid and the next server removes the folders
 * of pids that are gone.
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The private folder's parts. */
export interface Covers {
  folder: string;
  emptyFile: string;
}

let made: Covers | undefined;

const PREFIX = "agent-lsp-sandbox-";

/** The private folder, made on first use. */
export function sandboxCovers(): Covers {
  if (made) return made;
  removeFoldersOfGoneServers(os.tmpdir());
  const folder = mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
  const emptyFile = path.join(folder, "empty-file");
  writeFileSync(emptyFile, "");
  chmodSync(emptyFile, 0o000);
  made = { folder, emptyFile };
  process.once("exit", () => {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already, or the disk went away: nothing to keep.
    }
  });
  return made;
}

/**
 * Removes `agent-lsp-sandbox-<pid>-*` folders in `tmp` whose server is gone. Only real folders
 * (never a link someone put there) owned by this user, and only when `<pid>` names no process.
 */
export function removeFoldersOfGoneServers(tmp: string): void {
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return; // An unreadable temporary folder: nothing to sweep, and mkdtemp will say what is wrong.
  }
  for (const name of names) {
    const pid = Number(/^agent-lsp-sandbox-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processExists(pid)) continue;
    const folder = path.join(tmp, name);
    try {
      const stat = lstatSync(folder);
      if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) continue;
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // Another server removed it first, or it is not ours to remove: leave it.
    }
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists and belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
