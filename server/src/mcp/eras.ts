/**
 * Which local MCP servers spoke the 2025 protocol, remembered between starts. Finding out costs a
 * whole start: the SDK asks `server/discover` on a throwaway copy of the server (a 2025-era server
 * may exit on a request before `initialize`), waits for its verdict, ends it, and only then starts
 * the real one, so every such server started twice (2.2 times the server's own start in
 * `npm run bench`, mcp_start_inside_vs_direct). A server known to speak 2025 connects that way at
 * once; should that fail (it was upgraded), it is forgotten and the start negotiates again.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { McpServerSpec } from "./specs.js";

/** Modern protocol versions are dated 2026-07-28 or later; earlier ones are 2025-era. */
const FIRST_MODERN = "2026-07-28";

/** The servers known to speak a 2025 version: in memory, and in `file` when given. */
export class EraMemory {
  private loaded?: Map<string, string>;

  /** @param file where the knowledge is kept between runs (read on first use); none: memory only */
  constructor(private readonly file?: string) {}

  /** Whether `spec` spoke a 2025 version when it last started. */
  isLegacy(spec: McpServerSpec): boolean {
    return this.legacy.has(serverKey(spec));
  }

  private get legacy(): Map<string, string> {
    if (this.loaded) return this.loaded;
    this.loaded = new Map();
    if (!this.file) return this.loaded;
    try {
      const saved = JSON.parse(readFileSync(this.file, "utf8")) as Record<string, unknown>;
      for (const [key, version] of Object.entries(saved)) if (typeof version === "string" && version < FIRST_MODERN) this.loaded.set(key, version);
    } catch {
      // None yet, or unreadable: every server negotiates, as on a first start.
    }
    return this.loaded;
  }

  /** Notes the version `spec` negotiated (a modern one clears what was known). */
  remember(spec: McpServerSpec, version: string): void {
    const key = serverKey(spec);
    if (version >= FIRST_MODERN) return this.forget(spec);
    if (this.legacy.get(key) === version) return;
    this.legacy.set(key, version);
    this.save();
  }

  /** Forgets what was known of `spec` (it failed to start as known). */
  forget(spec: McpServerSpec): void {
    if (this.legacy.delete(serverKey(spec))) this.save();
  }

  private save(): void {
    if (!this.file) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(Object.fromEntries(this.legacy), null, 1)}\n`, { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      // Only a cache: the next start negotiates again.
    }
  }
}

/**
 * What identifies a local server's program: its launch line (command, args, folder, environment)
 * and sandbox, hashed, as the environment may hold secrets the file must not.
 */
function serverKey(spec: McpServerSpec): string {
  return createHash("sha256").update(JSON.stringify([spec.launchLine, spec.sandbox])).digest("hex");
}
