/**
 * The server's private sandbox folder (one per process, in the system's temporary folder, mode
 * 700): the empty file that covers hidden files (mode 000, so a read is refused rather than
 * finding nothing), and the network proxy's sockets. Removed at exit.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The private folder's parts. */
export interface Covers {
  folder: string;
  emptyFile: string;
}

let made: Covers | undefined;

/** The private folder, made on first use. */
export function sandboxCovers(): Covers {
  if (made) return made;
  const folder = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-sandbox-"));
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
