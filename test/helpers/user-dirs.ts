/**
 * Points the user's config and state folders (XDG_CONFIG_HOME, XDG_STATE_HOME) at a temp folder
 * of one test file's own, so user settings, skills and the approval signing key never touch the
 * real ones; restores them after.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { tempProject } from "./agent-setup.js";

/** Registers the hooks; returns the temp home folder (set once beforeAll ran). */
export function isolateUserDirs(prefix: string): { readonly home: string } {
  const saved = { state: process.env.XDG_STATE_HOME, config: process.env.XDG_CONFIG_HOME };
  const dirs = { home: "" };
  beforeAll(() => {
    dirs.home = tempProject(prefix);
    process.env.XDG_STATE_HOME = path.join(dirs.home, "state");
    process.env.XDG_CONFIG_HOME = path.join(dirs.home, "config");
  });
  afterAll(() => {
    for (const [k, v] of [["XDG_STATE_HOME", saved.state], ["XDG_CONFIG_HOME", saved.config]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dirs.home, { recursive: true, force: true });
  });
  return dirs;
}
