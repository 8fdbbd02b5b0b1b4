/**
 * Records in files only the user can read (`[mcp] token_store = "file"`), for a machine without a
 * keyring service: `<state folder>/mcp-oauth/<server>.json`, the folder 0700 and each file 0600,
 * written through a temp file and a rename. Never in a project.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { userStateDir } from "../../config/user-dirs.js";
import { parseRecord, type SignInRecord, type TokenStore } from "./token-store.js";

/** Files in the user's state folder. */
export class FileTokenStore implements TokenStore {
  readonly where: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.where = path.join(userStateDir(env), "mcp-oauth");
  }

  async load(server: string): Promise<SignInRecord | undefined> {
    try {
      return parseRecord(readFileSync(this.file(server), "utf8"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async save(server: string, record: SignInRecord): Promise<void> {
    mkdirSync(this.where, { recursive: true, mode: 0o700 });
    chmodSync(this.where, 0o700);
    const file = this.file(server);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record), { mode: 0o600 });
    renameSync(tmp, file);
  }

  async delete(server: string): Promise<boolean> {
    const file = this.file(server);
    try {
      readFileSync(file);
    } catch {
      return false;
    }
    rmSync(file, { force: true });
    return true;
  }

  private file(server: string): string {
    // Server names are [A-Za-z0-9_-] when added by `mcp add`; anything else is made safe for a file name.
    return path.join(this.where, `${server.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
  }
}
