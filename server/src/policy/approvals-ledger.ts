/**
 * What agent-lsp last wrote to a project's approvals.toml, kept in the user's state folder
 * (`approvals/<hash of the project's real path>.json`), outside every project: the project's
 * approvals generation and the signatures of the entries it wrote.
 *
 * Deleting an entry (or the file) revokes it. Restoring an old approvals.toml (a `git checkout
 * -- .`, a backup) must not bring it back, and the file alone cannot tell: so each signature
 * covers the generation, and when an entry agent-lsp wrote is gone from the file the generation
 * goes up and the entries still there are signed again. Every signature of an older generation
 * (the restored file's) then grants nothing.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** The record of one project. */
export interface Ledger {
  /** Bumped by every revocation; 0 until the first (signatures of generation 0 omit it). */
  generation: number;
  /** The signatures agent-lsp last wrote to the project's file. */
  entries: string[];
}

/** Where the record of the project with this real path is kept. */
export function ledgerPath(stateDir: string, realRoot: string): string {
  const hash = createHash("sha256").update(realRoot).digest("hex").slice(0, 32);
  return path.join(stateDir, "approvals", `${hash}.json`);
}

/** The project's record; undefined when there is none yet. Throws when it exists and cannot be read. */
export async function readLedger(stateDir: string, realRoot: string): Promise<Ledger | undefined> {
  const file = ledgerPath(stateDir, realRoot);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<Ledger> & { root?: unknown };
  if (typeof parsed.generation !== "number" || !Array.isArray(parsed.entries) || parsed.root !== realRoot) {
    throw new Error(`${file} is not an approvals record of ${realRoot}`);
  }
  return { generation: parsed.generation, entries: parsed.entries.filter((e): e is string => typeof e === "string") };
}

/** Another agent-lsp (another editor on the project) revoked since this one read the record. */
export class LedgerMovedOn extends Error {
  override readonly name = "LedgerMovedOn";
}

/**
 * Writes the project's record (readable by the user alone; a temp file renamed over it). The
 * generation never goes back: a record of an older one than the file holds throws LedgerMovedOn
 * (bringing back an old generation would bring back what it revoked).
 */
export async function writeLedger(stateDir: string, realRoot: string, ledger: Ledger): Promise<void> {
  const file = ledgerPath(stateDir, realRoot);
  const now = await readLedger(stateDir, realRoot).catch(() => undefined);
  if (now && now.generation > ledger.generation) {
    throw new LedgerMovedOn(`The approvals of ${realRoot} were revoked meanwhile by another agent-lsp (generation ${now.generation}).`);
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify({ root: realRoot, ...ledger }, null, 2)}\n`, { flag: "wx", mode: 0o600 });
    await rename(temp, file);
  } catch (err) {
    // A full disk leaves no half-written temp file behind.
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** True when an entry agent-lsp wrote is no longer among the file's signatures: it was revoked. */
export function revoked(ledger: Ledger, inFile: readonly string[]): boolean {
  const present = new Set(inFile);
  return ledger.entries.some((sig) => !present.has(sig));
}
