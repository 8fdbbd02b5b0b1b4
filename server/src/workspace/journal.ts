/**
 * The journal of in-flight writes. Before the first temp file of a commit is created, a small
 * entry naming every temp path (and the pid writing them) is written and synced under
 * `.agent-lsp/journal/`; it is removed when the commit ends either way. A process killed in
 * between leaves the entry behind, so the next start can remove exactly the temp files that crash
 * left, without scanning the tree.
 */
import { open, readdir, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { errnoCode } from "./errors.js";
import { ensureStateDir, STATE_DIR } from "./state-dir.js";

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
export const TEMP_NAME = /^\..+\.agent-lsp-tmp-\d+-\d+$/;

/** Writes and syncs a journal entry listing `temps`; returns its path for {@link closeJournal}. */
export async function openJournal(root: string, temps: string[]): Promise<string> {
  const dir = await ensureStateDir(root, "journal");
  entryCounter += 1;
  const file = path.join(dir, `${process.pid}-${Date.now()}-${entryCounter}.json`);
  activeEntries.add(file);
  const handle = await open(file, "w");
  try {
    await handle.writeFile(JSON.stringify({ pid: process.pid, temps } satisfies JournalEntry));
    await handle.sync();
  } finally {
    await handle.close();
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
 * the journal under `<root>/.agent-lsp/journal/`, and the stale entries themselves. Entries of a
 * live process (another server on the same project) are left alone. Returns the temp files removed.
 */
export async function cleanupTempFiles(root: string): Promise<string[]> {
  const dir = path.join(root, STATE_DIR, "journal");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter((n) => n.endsWith(".json"))) {
    const file = path.join(dir, name);
    if (activeEntries.has(file)) continue;
    const entry = await readEntry(file);
    // The writer's pid is in the entry and, for an entry still being written, in its name.
    const pid = entry?.pid ?? Number(name.split("-")[0]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    for (const temp of entry?.temps ?? []) {
      if (!TEMP_NAME.test(path.basename(temp))) continue;
      await unlink(temp).then(
        () => removed.push(temp),
        () => undefined,
      );
    }
    await unlink(file).catch(() => undefined);
  }
  return removed;
}

/** Reads one entry; a torn entry (killed while writing it) lists nothing that exists yet. */
async function readEntry(file: string): Promise<JournalEntry | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<JournalEntry>;
    if (typeof parsed.pid !== "number" || !Array.isArray(parsed.temps)) return undefined;
    return { pid: parsed.pid, temps: parsed.temps.filter((t): t is string => typeof t === "string") };
  } catch {
    return undefined;
  }
}
