/**
 * The server's private sandbox folder (one per process, in the system's temporary folder, mode
 * 700): the empty file that covers hidden files (mode 000, so a read is refused rather than
 * finding nothing), the network proxy's sockets (`proxy-<n>.sock`), and `alive.sock`, a Unix
 * socket the server listens on for as long as it lives. Removed at exit; a server that was
 * killed (SIGKILL, a crash) cannot, so the next server removes the folders whose server is gone.
 *
 * Gone is proved by the socket, not by the pid in the folder's name: a server in another PID
 * namespace sharing the temporary folder (a container, a sandbox that shares it) cannot see the
 * other's pid, and a pid may have been reused, but the kernel refuses a connection to a socket
 * only when nobody listens on it any more, whichever namespace the listener was in. So a folder
 * is removed only when its socket refuses (ECONNREFUSED), and is kept when a connection succeeds
 * or anything is unclear. A folder without the socket is from a server killed before it listened
 * or from an agent-lsp that had none: it is kept while fresh (its server may be about to listen)
 * and after that removed only when its pid names no process here, as before.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The private folder's parts. */
export interface Covers {
  folder: string;
  emptyFile: string;
}

let made: Covers | undefined;

const PREFIX = "agent-lsp-sandbox-";
/** The socket a live server listens on in its folder. */
export const ALIVE_SOCKET = "alive.sock";
/** A folder without its socket changed more recently than this may belong to a server about to listen. */
const FRESH_MS = 60_000;
/** A connection that neither succeeds nor is refused by then leaves the folder alone. */
const ANSWER_MS = 5_000;

/**
 * The private folder, made on first use. The folders of gone servers are removed afterwards, off
 * the caller's path: the first sandboxed command does not wait for the sweep, nor fail by it.
 */
export function sandboxCovers(): Covers {
  if (made) return made;
  const tmp = os.tmpdir();
  const folder = mkdtempSync(path.join(tmp, `${PREFIX}${process.pid}-`));
  const emptyFile = path.join(folder, "empty-file");
  writeFileSync(emptyFile, "");
  chmodSync(emptyFile, 0o000);
  const alive = listenWhileAlive(path.join(folder, ALIVE_SOCKET));
  made = { folder, emptyFile };
  process.once("exit", () => {
    alive.close();
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already, or the disk went away: nothing to keep.
    }
  });
  setImmediate(() => {
    // The sweep is tidying only: a failure of it must not reach the command that made the folder.
    removeFoldersOfGoneServers(tmp, { own: folder }).catch(() => {});
  });
  return made;
}

/**
 * Listens on `socket` so other servers can tell this one lives. Unref'd: it keeps nothing alive.
 * A listen that fails leaves the folder without its socket, judged by its pid as before.
 */
function listenWhileAlive(socket: string): net.Server {
  const server = net.createServer((connection) => connection.destroy());
  server.on("error", () => {
    // No socket: other servers fall back to the pid check for this folder (see the header).
  });
  server.listen(socket);
  server.unref();
  return server;
}

/** How removeFoldersOfGoneServers judges. */
export interface SweepOptions {
  /** This server's own folder, never removed. */
  own?: string;
  /** How recently a folder without its socket may have changed and still be kept (ms). */
  freshMs?: number;
}

/**
 * Removes the `agent-lsp-sandbox-<pid>-*` folders in `tmp` whose server is gone: only real
 * folders (never a link someone put there) owned by this user, never `own`, and only on proof
 * (see the header). Never rejects.
 */
export async function removeFoldersOfGoneServers(tmp: string, options: SweepOptions = {}): Promise<void> {
  let names: string[];
  try {
    names = await readdir(tmp);
  } catch {
    return; // An unreadable temporary folder: nothing to sweep, and mkdtemp says what is wrong.
  }
  for (const name of names) {
    const pid = Number(/^agent-lsp-sandbox-(\d+)-/.exec(name)?.[1]);
    const folder = path.join(tmp, name);
    if (!pid || folder === options.own) continue;
    try {
      if (await serverGone(folder, pid, options.freshMs ?? FRESH_MS)) await rm(folder, { recursive: true, force: true });
    } catch {
      // Another server removed it first, or it is not ours to remove: leave it.
    }
  }
}

/** True only when the server of `folder` is proved gone. */
async function serverGone(folder: string, pid: number, freshMs: number): Promise<boolean> {
  const stat = await lstat(folder);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) return false;
  const socket = path.join(folder, ALIVE_SOCKET);
  const socketStat = await lstat(socket).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  if (socketStat) return socketStat.isSocket() && (await nobodyListens(socket));
  if (Date.now() - stat.mtimeMs < freshMs) return false;
  return pid !== process.pid && !processExists(pid);
}

/** True only when a connection to `socket` is refused: its listener closed (its process ended). */
function nobodyListens(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const connection = net.connect(socket);
    const answer = (refused: boolean) => {
      clearTimeout(timer);
      connection.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => answer(false), ANSWER_MS);
    timer.unref();
    connection.unref();
    connection.once("connect", () => answer(false));
    connection.once("error", (err: NodeJS.ErrnoException) => answer(err.code === "ECONNREFUSED"));
  });
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
