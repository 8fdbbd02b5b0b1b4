/** `agent-lsp setup helix [--write]` through the built binary, in a throwaway HOME. */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { BINARY } from "../helpers/spawn-server.js";

const exec = promisify(execFile);
const SNIPPET = readFileSync(new URL("../../editors/helix/languages.toml", import.meta.url), "utf8");

let home: string;
let helixDir: string;
beforeEach(() => {
  home = tempProject("agent-lsp-setup-home-");
  helixDir = path.join(home, "xdg", "helix");
});

/** Runs the binary with HOME and XDG_CONFIG_HOME in the throwaway folder; never throws on exit status. */
async function setup(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BINARY, "setup", ...args], {
      cwd: home,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, "xdg"), PATH: "/usr/bin:/bin", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function backups(): string[] {
  return existsSync(helixDir) ? readdirSync(helixDir).filter((f) => f.startsWith("languages.toml.bak-")) : [];
}

describe("agent-lsp setup helix", () => {
  it("prints the snippet of editors/helix/languages.toml", async () => {
    const res = await setup(["helix"]);
    expect(res).toMatchObject({ code: 0, stdout: SNIPPET });
  });

  it("refuses other editors and unknown options with the usage", async () => {
    for (const args of [["vim"], ["helix", "--frobnicate"], []]) {
      const res = await setup(args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr).toContain("Usage: agent-lsp setup helix [--write]");
    }
  });

  it("--write creates languages.toml in $XDG_CONFIG_HOME/helix; a second run changes nothing and says so", async () => {
    const first = await setup(["helix", "--write"]);
    expect(first.code).toBe(0);
    const file = path.join(helixDir, "languages.toml");
    expect(first.stdout).toContain(`Helix languages.toml: ${file}`);
    expect(first.stdout).toContain("added [language-server.agent-lsp]");
    expect(first.stdout).toContain("`agent-lsp` is not on your PATH");
    expect(first.stdout).toContain("display-progress-messages = true");
    const written = readFileSync(file, "utf8");
    expect(written).toContain('name = "rust"\nlanguage-servers = ["rust-analyzer", "agent-lsp"]');
    expect(backups()).toEqual([]); // nothing to back up
    const second = await setup(["helix", "--write"]);
    expect(second.stdout).toContain("already set up there: nothing changed");
    expect(readFileSync(file, "utf8")).toBe(written);
    expect(backups()).toEqual([]);
  });

  it("--write falls back to ~/.config/helix without XDG_CONFIG_HOME, and backs up what it changes", async () => {
    const dir = path.join(home, ".config", "helix");
    mkdirSync(dir, { recursive: true });
    const mine = '# mine\n[[language]]\nname = "go"\nlanguage-servers = ["gopls"] # only gopls\n';
    writeFileSync(path.join(dir, "languages.toml"), mine);
    writeFileSync(path.join(dir, "config.toml"), "[editor.lsp]\ndisplay-progress-messages = true\n");
    const res = await setup(["helix", "--write"], { XDG_CONFIG_HOME: "" });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('go: added "agent-lsp" to your language-servers');
    expect(res.stdout).not.toContain("display-progress-messages");
    const backup = readdirSync(dir).filter((f) => f.startsWith("languages.toml.bak-"));
    expect(backup).toHaveLength(1);
    expect(res.stdout).toContain(`backup: ${path.join(dir, backup[0]!)}`);
    expect(readFileSync(path.join(dir, backup[0]!), "utf8")).toBe(mine);
    expect(readFileSync(path.join(dir, "languages.toml"), "utf8")).toContain('# mine\n[[language]]\nname = "go"\nlanguage-servers = ["gopls", "agent-lsp"] # only gopls\n');
  });

  it("--write leaves a broken languages.toml untouched and says why (exit 1)", async () => {
    mkdirSync(helixDir, { recursive: true });
    const broken = "[[language]\nname = \n";
    writeFileSync(path.join(helixDir, "languages.toml"), broken);
    const res = await setup(["helix", "--write"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("languages.toml is not valid TOML, so it is left as it is");
    expect(readFileSync(path.join(helixDir, "languages.toml"), "utf8")).toBe(broken);
    expect(backups()).toEqual([]);
  });
});
