/**
 * Settings that change while the server runs are taken up without a restart: the config files
 * are re-read when one of them changed (checked at most once a second, when the configuration is
 * next used), and an editor can hand over the provider variables of its own environment, which a
 * running server never sees change (`agent/reloadConfig`).
 */
import { statSync } from "node:fs";
import { projectConfigPath, userConfigPath } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { credentialStatus, knownProviders, providerEnvNames } from "../providers/registry.js";

/** Least time between two looks at the config files. */
const CHECK_EVERY_MS = 1000;

/** What each config file was when it was last read (mtime and size; absent: undefined). */
export class ConfigFileStamps {
  private stamps = "";
  private checkedAt = 0;

  constructor(private readonly files: () => string[]) {
    this.stamps = this.read();
  }

  /** True when a file changed since the last call that said so (or since construction). */
  changed(now = Date.now()): boolean {
    if (now - this.checkedAt < CHECK_EVERY_MS) return false;
    this.checkedAt = now;
    const stamps = this.read();
    if (stamps === this.stamps) return false;
    this.stamps = stamps;
    return true;
  }

  private read(): string {
    return this.files()
      .map((f) => {
        try {
          const st = statSync(f);
          return `${f}:${st.mtimeMs}:${st.size}`;
        } catch {
          return `${f}:-`;
        }
      })
      .join("|");
  }
}

/** The config files of a project root, in layer order. */
export function configFiles(root: string): () => string[] {
  return () => [userConfigPath(), projectConfigPath(root)];
}

/** One provider as the server will use it now. */
export interface ProviderStatus {
  provider: string;
  ok: boolean;
  detail: string;
}

/** What `agent/reloadConfig` answers: the providers as the server now sees them, and the variables it reads. */
export interface ReloadReport {
  providers: ProviderStatus[];
  env: string[];
  /** Variables the editor sent that no provider reads (ignored). */
  ignored?: string[];
}

/**
 * Sets the provider variables an editor sent (a null value unsets one) in this process's
 * environment; any other name is ignored. Returns the names ignored.
 */
export function applyProviderEnv(env: Record<string, string | null>, config: Config): string[] {
  const allowed = new Set(providerEnvNames(config));
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!allowed.has(name)) {
      ignored.push(name);
      continue;
    }
    if (value === null || value === "") delete process.env[name];
    else process.env[name] = value;
  }
  return ignored;
}

/** The providers the config knows, each with whether it can be called now and why. */
export function reloadReport(config: Config, ignored: string[] = []): ReloadReport {
  const providers = knownProviders(config).map((provider) => ({ provider, ...credentialStatus(provider, config) }));
  return { providers, env: providerEnvNames(config), ...(ignored.length ? { ignored } : {}) };
}
