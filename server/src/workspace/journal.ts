/**
 * The journal of in-flight writes. Before the first temp file of a commit is created, a small
 * entry naming every temp path (and the pid writing them) is written and synced under
 * `.agent-lsp/journal/`; it is removed when the commit ends either way. A process killed in
 * between leaves the entry behind, so the next start can remove exactly the temp files that crash
 * left, without scanning the tree.
 */
import { closeSync, fsyncSync } from "node:fs";
import { lstat, readdir, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { asStateError, existingStateDir, openStateFile, writeAll } from "../util/state-folder.js";
import { errnoCode } from "./errors.js";
import { ensureStateDir } from "./state-dir.js";

/** What one journal entry records. */
interface JournalEntry {
  pid: number;
  temps: string[];
}

/** Journal entries this process has open right now (never cleaned up from under a commit). */
const activeEntries = new Set<string>();
let entryCounter = 0;
let tempCounter = 0;

/** A recognisable temp name beside `target`: `.<name>.agent-lsp-tmp-<pid>-<n>`. */
export function tempPathFor(target: string): string {
  tempCounter += 1;
  return path.join(path.dirname(target), `.${path.basename(target)}.agent-lsp-tmp-${process.pid}-${tempCounter}`);
}

/** The pattern of our temp names, for tests and for anyone scanning a folder. */
export const TEMP_NAME = /^\..+\.agent-lsp-tmp-(\d+)-\d+$/;

/** The pattern of our entry names: `<pid>-<time>-<n>.json`. */
const ENTRY_NAME = /^(\d+)-\d+-\d+\.json$/;

/** Writes and syncs a journal entry listing `temps`; returns its path for {@link closeJournal}. */
export async function openJournal(root: string, temps: string[]): Promise<string> {
  entryCounter += 1;
  let file = "";
  try {
    const dir = await ensureStateDir(root, "journal");
    file = path.join(dir, `${process.pid}-${Date.now()}-${entryCounter}.json`);
    // A new file, never through a link: the folder came from the repository, the name is ours.
    const fd = openStateFile(file, "new");
    activeEntries.add(file);
    try {
      writeAll(fd, Buffer.from(JSON.stringify({ pid: process.pid, temps } satisfies JournalEntry)));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (file) await closeJournal(file);
    // Nothing was written yet: the change did not happen.
    throw asStateError(err, `Could not write the write journal${file ? ` ${file}` : ""} before the change (nothing was changed)`);
  }
  return file;
}

/** Removes a journal entry once its commit ended. */
export async function closeJournal(file: string): Promise<void> {
  activeEntries.delete(file);
  await unlink(file).catch(() => undefined);
}

/** True when a process with this pid is running (EPERM: it runs as someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === "EPERM";
  }
}

/**
 * Removes temp files left by a commit that never finished (the process was killed), as listed by
 * the journal, and the stale entries themselves. Only what agent-lsp wrote is touched: entries by
 * our name pattern that are regular files in the real journal folder (a link there is refused,
 * never followed), and temp files by our temp name, of the entry's own pid, that are regular
 * files. Entries of a live process (another server on the same project) are left alone.
 * Returns the temp files removed.
 */
export async function cleanupTempFiles(root: string): Promise<string[]> {
  const dir = existingStateDir(root, "journal");
  if (!dir) return [];
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const match = ENTRY_NAME.exec(name);
    const file = path.join(dir, name);
    if (!match || activeEntries.has(file) || !(await isRegularFile(file))) continue;
    const entry = await readEntry(file);
    if (entry === "foreign") continue;
    // The writer's pid is in the entry and, for an entry still being written, in its name.
    const pid = entry?.pid ?? Number(match[1]);
    if (pid !== process.pid && isAlive(pid)) continue;
    for (const temp of entry?.temps ?? []) {
      if (await isOurTemp(temp, pid)) {
        await unlink(temp).then(
          () => removed.push(temp),
          () => undefined,
        );
      }
    }
    await unlink(file).catch(() => undefined);
  }
  return removed;
}

/** A temp file a commit of process `pid` made: our name with that pid, an absolute plain path, a regular file. */
async function isOurTemp(temp: string, pid: number): Promise<boolean> {
  const match = TEMP_NAME.exec(path.basename(temp));
  if (!match || Number(match[1]) !== pid) return false;
  if (!path.isAbsolute(temp) || path.normalize(temp) !== temp) return false;
  return isRegularFile(temp);
}

async function isRegularFile(p: string): Promise<boolean> {
  return lstat(p).then(
    (st) => st.isFile(),
    () => false,
  );
}

/**
 * Reads one entry: undefined for a torn one (killed while writing it: it lists nothing that
 * exists yet), "foreign" for a file our writer cannot have written (left alone).
 */
async function readEntry(file: string): Promise<JournalEntry | undefined | "foreign"> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return "foreign";
  // What openJournal writes starts so; a torn entry is a prefix of it.
  if (!ENTRY_START.startsWith(text.slice(0, ENTRY_START.length))) return "foreign";
  try {
    const parsed = JSON.parse(text) as Partial<JournalEntry>;
    if (typeof parsed.pid !== "number" || !Array.isArray(parsed.temps)) return "foreign";
    return { pid: parsed.pid, temps: parsed.temps.filter((t): t is string => typeof t === "string") };
  } catch {
    return undefined;
  }
}

/** How every entry openJournal writes begins. */
const ENTRY_START = '{"pid":';
