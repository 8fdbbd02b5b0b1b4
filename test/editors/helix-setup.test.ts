/**
 * `agent-lsp setup helix` against real Helix, 25.01 and 25.07, with that Helix as `hx` on PATH:
 * the snippet's lists are that Helix's own default servers (compared through `hx --health`, which
 * lists what Helix would start), a merged user file is read by Helix as intended and keeps every
 * server the user or Helix has, the report says what changed, and a user who followed the set-up
 * gets agent-lsp's code actions in a language whose own server is not installed.
 */
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "smol-toml";
import { afterEach, expect, it } from "vitest";
import { HELIX_LANGUAGES, type HelixLanguage } from "../../server/src/cli/helix-languages.js";
import { tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { BINARY } from "../helpers/spawn-server.js";
import { cleanEnv, describeEachHelix, findHelixes, HelixSession, type HelixEditor } from "./helix-harness.js";

const exec = promisify(execFile);
const TIMEOUT = 120_000;
const helixes = await findHelixes();

const folders: string[] = [];
let fake: FakeProvider | undefined;
let hx: HelixSession | undefined;
afterEach(async () => {
  await hx?.dispose();
  await fake?.close();
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
  hx = undefined;
  fake = undefined;
});

/** A throwaway HOME whose Helix config folder holds `languagesToml` (none when undefined). */
function homeWith(languagesToml?: string): string {
  const home = tempProject("agent-lsp-helix-setup-");
  folders.push(home);
  mkdirSync(path.join(home, ".config/helix"), { recursive: true });
  if (languagesToml !== undefined) writeFileSync(path.join(home, ".config/helix/languages.toml"), languagesToml);
  return home;
}

/** HOME in `home`, and this Helix as `hx` on PATH (its wrapper's folder first). */
function homeEnv(editor: HelixEditor, home: string, extraPath = ""): NodeJS.ProcessEnv {
  return { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), PATH: `${extraPath}${path.dirname(editor.bin)}:/usr/bin:/bin` };
}

/** The servers `hx --health LANG` lists under "Configured language servers" (names in 25.07, commands in 25.01). */
async function healthServers(editor: HelixEditor, home: string, language: string): Promise<string[]> {
  const { stdout, stderr } = await exec(editor.bin, ["--health", language], { cwd: home, env: homeEnv(editor, home), timeout: 30_000 });
  const lines = stdout.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const at = lines.findIndex((l) => l.startsWith("Configured language servers:"));
  if (at < 0) throw new Error(`hx --health ${language} printed no server list:\n${stdout}\n${stderr}`);
  if (/None\s*$/.test(lines[at]!)) return [];
  const servers: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const m = /^\s+[✓✘]\s+([^:]+):/.exec(line);
    if (!m) break;
    servers.push(m[1]!);
  }
  return servers;
}

/** What Helix should list with agent-lsp merged into a language whose servers were `before`. */
function withAgent(language: HelixLanguage, before: string[]): string[] {
  return language.agentFirst ? ["agent-lsp", ...before] : [...before, "agent-lsp"];
}

/** Runs `agent-lsp setup ARGS` for `home` with this Helix on PATH; never throws on exit status. */
async function setup(editor: HelixEditor, home: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BINARY, "setup", ...args], { cwd: home, env: { ...homeEnv(editor, home), ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function backups(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith("languages.toml.bak-")) : [];
}

function setupCases(editor: HelixEditor): void {
  it("the snippet keeps this Helix's own default servers of every language and adds agent-lsp", { timeout: TIMEOUT }, async () => {
    const clean = homeWith();
    const printed = await setup(editor, clean, ["helix"]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain(`defaults of ${editor.version}`);
    const snippet = homeWith(printed.stdout);
    for (const language of HELIX_LANGUAGES) {
      const defaults = await healthServers(editor, clean, language.name);
      expect(await healthServers(editor, snippet, language.name), language.name).toEqual(withAgent(language, defaults));
    }
  });

  it("Helix reads a merged user file as meant: the user's servers kept, this Helix's defaults where unset, the report says so", { timeout: TIMEOUT }, async () => {
    const clean = homeWith();
    const home = homeWith(
      [
        "# my Helix languages",
        "[language-server.my-py]",
        'command = "my-py-server"',
        "",
        "[[language]]",
        'name = "python"',
        "language-servers = [",
        '  "my-py", # mine',
        "]",
        "",
        "[[language]]",
        'name = "rust" # formatting on',
        "auto-format = true",
        "",
      ].join("\n"),
    );
    const report = await setup(editor, home, ["helix", "--write"]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(`Helix: ${editor.version} (default servers read from `);
    expect(report.stdout).toContain('python: added "agent-lsp" to your language-servers');
    expect(report.stdout).toMatch(/rust: set language-servers = \[.*"agent-lsp"\] \(Helix's defaults plus agent-lsp: you had not set the key\)/);
    expect(report.stdout).toMatch(/go: added a \[\[language\]\] block/);
    // 25.01's health lists commands, 25.07's the servers' names.
    expect(await healthServers(editor, home, "python")).toEqual([editor.line === "25.01" ? "my-py-server" : "my-py", "agent-lsp"]);
    const byName = (name: string) => HELIX_LANGUAGES.find((l) => l.name === name)!;
    expect(await healthServers(editor, home, "rust")).toEqual(withAgent(byName("rust"), await healthServers(editor, clean, "rust")));
    expect(await healthServers(editor, home, "go")).toEqual(withAgent(byName("go"), await healthServers(editor, clean, "go")));
    expect(await healthServers(editor, home, "markdown")).toEqual(withAgent(byName("markdown"), await healthServers(editor, clean, "markdown")));
  });

  it("a list written for Helix 25.01 is kept; on 25.07 the report names the defaults it leaves out", { timeout: TIMEOUT }, async () => {
    const home = homeWith('[[language]]\nname = "python"\nlanguage-servers = ["ruff", "jedi", "pylsp", "agent-lsp"]\n');
    const report = await setup(editor, home, ["helix", "--write"]);
    expect(report.code, report.stderr).toBe(0);
    const python = (parse(readFileSync(path.join(home, ".config/helix/languages.toml"), "utf8")) as { language: { name: string; "language-servers": string[] }[] }).language.find((l) => l.name === "python");
    expect(python?.["language-servers"]).toEqual(["ruff", "jedi", "pylsp", "agent-lsp"]);
    if (editor.line === "25.07") expect(report.stdout).toMatch(/note: python: your language-servers leaves out "ty", "zuban", default in helix 25\.07/);
    else expect(report.stdout).not.toContain("leaves out");
  });

  it("--write creates languages.toml in $XDG_CONFIG_HOME/helix, backs up a file it changes, and a second run changes nothing", { timeout: TIMEOUT }, async () => {
    const home = homeWith();
    const dir = path.join(home, ".config/helix");
    const first = await setup(editor, home, ["helix", "--write"]);
    expect(first.code, first.stderr).toBe(0);
    const file = path.join(dir, "languages.toml");
    expect(first.stdout).toContain(`Helix languages.toml: ${file}`);
    expect(first.stdout).toContain("added [language-server.agent-lsp]");
    expect(first.stdout).toContain("`agent-lsp` is not on your PATH");
    expect(first.stdout).toContain("display-progress-messages = true");
    const written = readFileSync(file, "utf8");
    expect(backups(dir)).toEqual([]); // nothing to back up
    const second = await setup(editor, home, ["helix", "--write"]);
    expect(second.stdout).toContain("already set up there: nothing changed");
    expect(readFileSync(file, "utf8")).toBe(written);
    const mine = '# mine\n[[language]]\nname = "go"\nlanguage-servers = ["gopls"] # only gopls\n';
    writeFileSync(file, mine);
    writeFileSync(path.join(dir, "config.toml"), "[editor.lsp]\ndisplay-progress-messages = true\n");
    const third = await setup(editor, home, ["helix", "--write"], { XDG_CONFIG_HOME: "" }); // ~/.config/helix
    expect(third.stdout).toContain('go: added "agent-lsp" to your language-servers');
    expect(third.stdout).not.toContain("display-progress-messages");
    expect(backups(dir)).toHaveLength(1);
    expect(readFileSync(path.join(dir, backups(dir)[0]!), "utf8")).toBe(mine);
    expect(readFileSync(file, "utf8")).toContain('# mine\n[[language]]\nname = "go"\nlanguage-servers = ["gopls", "agent-lsp"] # only gopls\n');
  });

  it("--write leaves a broken languages.toml untouched and says why (exit 1)", { timeout: TIMEOUT }, async () => {
    const broken = "[[language]\nname = \n";
    const home = homeWith(broken);
    const res = await setup(editor, home, ["helix", "--write"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("languages.toml is not valid TOML, so it is left as it is");
    expect(readFileSync(path.join(home, ".config/helix/languages.toml"), "utf8")).toBe(broken);
    expect(backups(path.join(home, ".config/helix"))).toEqual([]);
  });

  it("after setup, agent-lsp's code actions work in a language whose own server is not installed", { timeout: TIMEOUT }, async () => {
    const home = homeWith();
    await setup(editor, home, ["helix", "--write"]);
    fake = await startFakeProvider();
    fake.enqueue({ text: "It adds two numbers." });
    // `agent-lsp` on PATH, as `npm install -g` would put it; the user's own agent-lsp config.
    const bin = path.join(home, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "agent-lsp"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BINARY)} "$@"\n`);
    chmodSync(path.join(bin, "agent-lsp"), 0o755);
    const userConfig = `model = "anthropic/claude-sonnet-4-6"\nsafety = "full_access"\n[providers.anthropic]\nbase_url = "${fake.url}"\napi_key = "sk-ant-test-key-0000"\n`;
    hx = await HelixSession.start({
      editor,
      fake,
      files: { "add.js": "function add(a, b) {\n  return a + b;\n}\n" },
      open: ["add.js"],
      languagesToml: readFileSync(path.join(home, ".config/helix/languages.toml"), "utf8"),
      homeFiles: { ".config/agent-lsp/config.toml": userConfig },
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    // Helix starts the servers it finds and says nothing about the others; agent-lsp still works.
    const health = await exec(editor.bin, ["--health", "javascript"], { cwd: home, env: homeEnv(editor, home, `${bin}:`) });
    expect(health.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/✘ typescript-language-server: .*not found[\s\S]*✓ agent-lsp:/);
    await hx.waitForServer("agent-lsp");
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await hx.waitForScreen((s) => s.includes("Agent: explain add.js:2: done") && s.includes("It adds two numbers."), { what: "the answer in the message line" });
    expect(await hx.quit()).toBe(true);
  });
}

describeEachHelix("agent-lsp setup helix", helixes, setupCases);
