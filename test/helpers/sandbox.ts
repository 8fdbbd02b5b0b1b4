/**
 * The kernel sandbox in tests: whether bwrap works on this machine (the tests that need it skip
 * where it does not, and under AGENT_LSP_REQUIRE_ALL=1, as in CI, fail instead), settings for a
 * ProcessManager with the sandbox on, and a fake home outside /tmp (inside the sandbox /tmp is a
 * private, empty folder, so a secret under /tmp would be out of sight whatever the sandbox hid).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_CONFIG, type Config } from "../../server/src/config/schema.js";
import { sandboxSettings } from "../../server/src/agent/sandbox-settings.js";
import { bwrapTrialArgs, findOnPath } from "../../server/src/exec/sandbox/probe.js";
import type { SandboxSettings } from "../../server/src/exec/sandbox/settings.js";
import { REQUIRE_ALL } from "./xvfb.js";

/** Why the sandbox cannot run here, or undefined when it can. */
export function sandboxMissing(): string | undefined {
  if (process.platform !== "linux") return `no bwrap sandbox on ${process.platform}`;
  const bwrap = findOnPath("bwrap", process.env.PATH);
  if (!bwrap) return "bwrap is not installed (apt-get install bubblewrap)";
  const trial = spawnSync(bwrap, bwrapTrialArgs(process.getuid?.() === 0), { encoding: "utf8" });
  return trial.status === 0 ? undefined : `bwrap does not work here: ${trial.stderr.trim()}`;
}

/** Skip (or, under CI, fail) the suite when the sandbox cannot run. */
export function skipWithoutSandbox(): boolean {
  const missing = sandboxMissing();
  if (missing && REQUIRE_ALL) throw new Error(`The sandbox tests must run under AGENT_LSP_REQUIRE_ALL=1: ${missing}`);
  return missing !== undefined;
}

/** A home folder for one test, outside /tmp, with an SSH key and a credentials file in it. */
export interface FakeHome {
  home: string;
  /** `~/.ssh/id_rsa`, holding SECRET. */
  sshKey: string;
  /** `~/.netrc`, holding SECRET. */
  netrc: string;
  dispose(): void;
}

/** The text the fake home's credentials hold. */
export const SECRET = "SECRET-d41d8cd98f00b204";

/** Makes a fake home under /var/tmp (readable by every user, unlike the sandbox's /tmp). */
export function fakeHome(): FakeHome {
  const home = realpathSync(mkdtempSync(path.join("/var/tmp", "agent-lsp-home-")));
  mkdirSync(path.join(home, ".ssh"));
  const sshKey = path.join(home, ".ssh", "id_rsa");
  const netrc = path.join(home, ".netrc");
  writeFileSync(sshKey, `${SECRET}\n`, { mode: 0o644 });
  writeFileSync(netrc, `machine example.com password ${SECRET}\n`, { mode: 0o644 });
  return { home, sshKey, netrc, dispose: () => rmSync(home, { recursive: true, force: true }) };
}

/** Sandbox settings as the server derives them from `config` for a user whose home is `home`. */
export function sandboxFor(home: string, config: Partial<Config["exec"]> = {}, web: Partial<Config["web"]> = {}): SandboxSettings {
  const full: Config = { ...DEFAULT_CONFIG, exec: { ...DEFAULT_CONFIG.exec, ...config }, web: { ...DEFAULT_CONFIG.web, ...web } };
  return sandboxSettings(full, { HOME: home }, home);
}
