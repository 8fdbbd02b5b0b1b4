/**
 * The key that signs remembered approvals. It lives in the user's state folder, outside every
 * project, so an entry in a project's approvals.toml grants something only when agent-lsp wrote
 * it from this user's own "Yes, don't ask again": an entry added by the agent (through a command),
 * by a teammate or by a cloned repository carries no valid signature and grants nothing.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** Where the key is kept in the user's state folder. */
export function approvalKeyPath(stateDir: string): string {
  return path.join(stateDir, "approvals.key");
}

/** The key, or undefined when none was made yet (then no entry is signed). */
export async function readApprovalKey(stateDir: string): Promise<Buffer | undefined> {
  try {
    const hex = (await readFile(approvalKeyPath(stateDir), "utf8")).trim();
    return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, "hex") : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** The key, made on first use (readable by the user alone). */
export async function ensureApprovalKey(stateDir: string): Promise<Buffer> {
  const existing = await readApprovalKey(stateDir);
  if (existing) return existing;
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(approvalKeyPath(stateDir), `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
  } catch (err) {
    // Another server made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const made = await readApprovalKey(stateDir);
  if (!made) throw new Error(`${approvalKeyPath(stateDir)} is not a valid approvals key`);
  return made;
}

/** The signature of one entry's fields (the project's real root first, so it holds in that project only). */
export function signEntry(key: Buffer, fields: readonly string[]): string {
  return createHmac("sha256", key).update(JSON.stringify(fields)).digest("hex");
}

/** True when `sig` is the signature of `fields`. */
export function verifyEntry(key: Buffer, fields: readonly string[], sig: string): boolean {
  const want = Buffer.from(signEntry(key, fields), "hex");
  const got = Buffer.from(sig, "hex");
  return got.length === want.length && timingSafeEqual(got, want);
}
