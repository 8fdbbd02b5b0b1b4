/**
 * test/private-home.ts: the tests run with a home and XDG folders of their own in the temp folder,
 * and so does every process they start, so no test writes into the real home.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("the tests' home", () => {
  it("is a folder of the run's own in the temp folder, with the XDG folders in it", () => {
    const home = process.env.HOME!;
    expect(path.dirname(home)).toBe(os.tmpdir());
    expect(path.basename(home)).toMatch(/^agent-lsp-tests-home-/);
    expect(os.homedir()).toBe(home);
    for (const name of ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]) {
      expect(process.env[name]!.startsWith(`${home}/`), name).toBe(true);
      expect(existsSync(process.env[name]!), name).toBe(true);
    }
  });

  it("is the home of the processes a test starts", () => {
    const r = spawnSync("sh", ["-c", 'printf %s "$HOME"'], { encoding: "utf8" });
    expect(r.stdout).toBe(process.env.HOME);
  });
});
