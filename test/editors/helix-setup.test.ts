/**
 * `agent-lsp setup helix` against real Helix 25.01: the snippet's default servers are Helix's own
 * (compared through `hx --health`, which lists the server commands Helix would start), a merged
 * user file is read by Helix as intended, and a user who followed the set-up gets agent-lsp's
 * code actions in a language whose own server is not installed.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, expect, it } from "vitest";
import { HELIX_LANGUAGES, type HelixLanguage } from "../../server/src/cli/helix-languages.js";
import { tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { BINARY } from "../helpers/spawn-server.js";
import { cleanEnv, describeWithHelix, findHelix, HELIX_BIN, HelixSession } from "./helix-harness.js";

const exec = promisify(execFile);
const TIMEOUT = 120_000;
const helix = await findHelix();

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

function homeEnv(home: string): NodeJS.ProcessEnv {
  return { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
}

/** The server commands `hx --health LANG` lists under "Configured language servers" (ANSI stripped). */
async function healthServers(home: string, language: string): Promise<string[]> {
  const { stdout, stderr } = await exec(HELIX_BIN, ["--health", language], { cwd: home, env: homeEnv(home), timeout: 30_000 });
  const lines = stdout.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const at = lines.findIndex((l) => l.startsWith("Configured language servers:"));
  if (at < 0) throw new Error(`hx --health ${language} printed no server list:\n${stdout}\n${stderr}`);
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

/** Runs `agent-lsp setup helix --write` for `home`; returns its report. */
async function setupWrite(home: string): Promise<string> {
  const { stdout } = await exec(process.execPath, [BINARY, "setup", "helix", "--write"], { env: homeEnv(home) });
  return stdout;
}

function setupCases(): void {
  it("the snippet keeps Helix 25.01's own default servers of every language and adds agent-lsp", { timeout: TIMEOUT }, async () => {
    const clean = homeWith();
    const snippet = homeWith(readFileSync(new URL("../../editors/helix/languages.toml", import.meta.url), "utf8"));
    for (const language of HELIX_LANGUAGES) {
      const defaults = await healthServers(clean, language.name);
      expect(defaults, `${language.name}: Helix's defaults`).toHaveLength(language.defaults.length);
      expect(await healthServers(snippet, language.name), language.name).toEqual(withAgent(language, defaults));
    }
  });

  it("Helix reads a merged user file as meant: the user's servers kept, defaults added where unset", { timeout: TIMEOUT }, async () => {
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
    const report = await setupWrite(home);
    expect(report).toContain('python: added "agent-lsp" to your language-servers');
    expect(await healthServers(home, "python")).toEqual(["my-py-server", "agent-lsp"]);
    const byName = (name: string) => HELIX_LANGUAGES.find((l) => l.name === name)!;
    expect(await healthServers(home, "rust")).toEqual(withAgent(byName("rust"), await healthServers(clean, "rust")));
    expect(await healthServers(home, "go")).toEqual(withAgent(byName("go"), await healthServers(clean, "go")));
  });

  it("after setup, agent-lsp's code actions work in a language whose own server is not installed", { timeout: TIMEOUT }, async () => {
    const home = homeWith();
    await setupWrite(home);
    fake = await startFakeProvider();
    fake.enqueue({ text: "It adds two numbers." });
    // `agent-lsp` on PATH, as `npm install -g` would put it; the user's own agent-lsp config.
    const bin = path.join(home, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "agent-lsp"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BINARY)} "$@"\n`);
    chmodSync(path.join(bin, "agent-lsp"), 0o755);
    const userConfig = `model = "anthropic/claude-sonnet-4-6"\nsafety = "full_access"\n[providers.anthropic]\nbase_url = "${fake.url}"\napi_key = "sk-ant-test-key-0000"\n`;
    hx = await HelixSession.start({
      fake,
      files: { "add.js": "function add(a, b) {\n  return a + b;\n}\n" },
      open: ["add.js"],
      languagesToml: readFileSync(path.join(home, ".config/helix/languages.toml"), "utf8"),
      homeFiles: { ".config/agent-lsp/config.toml": userConfig },
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    // Helix starts the servers it finds and says nothing about the others; agent-lsp still works.
    const health = await exec(HELIX_BIN, ["--health", "javascript"], { cwd: home, env: { ...homeEnv(home), PATH: `${bin}:${process.env.PATH}` } });
    expect(health.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/✘ typescript-language-server: .*not found[\s\S]*✓ agent-lsp:/);
    await hx.waitForServer("agent-lsp");
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await hx.waitForScreen((s) => s.includes("Agent: explain add.js:2: done") && s.includes("It adds two numbers."), { what: "the answer in the message line" });
    expect(await hx.quit()).toBe(true);
  });
}

describeWithHelix("agent-lsp setup helix, in Helix 25.01", helix, setupCases);
