/**
 * Vitest global set-up: the whole run gets a home and XDG folders of its own in the temp folder,
 * so nothing a test starts (servers, editors, browsers, keyrings) writes into the real home of
 * whoever runs the tests; `.ci/run` checks that no file appears outside the clone and the temp
 * folders (test/stray-files.sh). Tests that need a home of their own still set HOME again. The
 * folder is removed when the run ends.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const VARS = ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"] as const;

/** Points HOME and the XDG folders at a new temp folder; returns the teardown. */
export default function setup(): () => void {
  const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-tests-home-")));
  const saved = Object.fromEntries(VARS.map((name) => [name, process.env[name]]));
  const folders: Record<(typeof VARS)[number], string> = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
  };
  for (const name of VARS) {
    mkdirSync(folders[name], { recursive: true });
    process.env[name] = folders[name];
  }
  return () => {
    for (const name of VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(home, { recursive: true, force: true });
  };
}
