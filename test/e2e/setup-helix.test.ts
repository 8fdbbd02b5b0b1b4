/**
 * `agent-lsp setup helix` through the built binary, in a throwaway HOME, where Helix cannot be
 * run: nothing is guessed. The runs with a real Helix (25.01 and 25.07) are
 * test/editors/helix-setup.test.ts.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { BINARY } from "../helpers/spawn-server.js";

const exec = promisify(execFile);
const SERVER_SNIPPET = readFileSync(new URL("../../editors/helix/languages.toml", import.meta.url), "utf8");

let home: string;
beforeEach(() => {
  home = tempProject("agent-lsp-setup-home-");
});

/** Runs the binary with HOME and XDG_CONFIG_HOME in the throwaway folder and no hx on PATH; never throws on exit status. */
async function setup(args: string[]) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BINARY, "setup", ...args], {
      cwd: home,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg"), PATH: home },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("agent-lsp setup helix without Helix", () => {
  it("refuses other editors with the usage, and an unknown option by name (as every command does)", async () => {
    for (const args of [["vim"], []]) {
      const res = await setup(args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr).toContain("Usage: agent-lsp setup helix [--write] [--hx PATH]");
    }
    const unknown = await setup(["helix", "--frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option --frobnicate");
    expect(unknown.stderr).toContain("agent-lsp setup --help");
  });

  it("prints only the server entry (editors/helix/languages.toml) and says why, exit 1", async () => {
    const res = await setup(["helix"]);
    expect(res).toMatchObject({ code: 1, stdout: SERVER_SNIPPET });
    expect(res.stderr).toMatch(/cannot read the default language servers of your Helix: could not run Helix \(hx --version\)/);
  });

  it("--write writes nothing without Helix's defaults, and says so; --hx names another Helix", async () => {
    const res = await setup(["helix", "--write"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("Nothing was written. Run it where `hx` is on PATH, or name it with --hx PATH.");
    expect(existsSync(path.join(home, "xdg", "helix", "languages.toml"))).toBe(false);
    const named = await setup(["helix", "--write", "--hx", path.join(home, "no-such-hx")]);
    expect(named.stderr).toContain(`could not run Helix (${path.join(home, "no-such-hx")} --version)`);
  });
});
