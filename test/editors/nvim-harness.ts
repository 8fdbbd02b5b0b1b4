/**
 * Runs the Lua specs of test/editors/nvim/ in real headless Neovim against the built server
 * and the fake provider. Each spec is one `nvim --headless -u test/editors/minimal_init.lua`
 * process in a throwaway project, HOME and XDG folders; it exits 0 when it passed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fakeProviderOptions } from "../helpers/agent-setup.js";
import type { FakeProvider } from "../helpers/fake-provider/index.js";
import { envWithout, probeEditor, type ProbedEditor } from "./editor-probe.js";
import { runDetached, type RunResult } from "./run-detached.js";

/** The repository root. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The built server the specs start. */
export const SERVER_BUNDLE = path.join(REPO, "server/dist/agent-lsp.js");
const MINIMAL_INIT = path.join(REPO, "test/editors/minimal_init.lua");
const HELPERS = path.join(REPO, "test/editors/nvim/helpers.lua");

/** A Neovim the suite runs on. */
export type NvimEditor = ProbedEditor;

/**
 * The three Neovims of the matrix, and every spec runs on each: Debian bookworm's package (0.7.2,
 * the oldest the plugin supports), trixie's 0.10 and sid's 0.12 (what most users now run),
 * unpacked by `test/editors/install-nvim.sh trixie|sid`. Env AGENT_LSP_NVIM_BOOKWORM /
 * AGENT_LSP_NVIM_TRIXIE / AGENT_LSP_NVIM_SID point elsewhere.
 */
export function findEditors(): NvimEditor[] {
  return [
    probe("Neovim 0.7 (Debian bookworm)", process.env.AGENT_LSP_NVIM_BOOKWORM ?? "/usr/bin/nvim", /^NVIM v0\.7\./, "apt-get install -y neovim"),
    probe(
      "Neovim 0.10 (Debian trixie)",
      process.env.AGENT_LSP_NVIM_TRIXIE ?? path.join(REPO, ".cache/nvim-trixie/bin/nvim"),
      /^NVIM v0\.10\./,
      "sh test/editors/install-nvim.sh trixie",
    ),
    probe(
      "Neovim 0.12 (Debian sid)",
      process.env.AGENT_LSP_NVIM_SID ?? path.join(REPO, ".cache/nvim-sid/bin/nvim"),
      /^NVIM v0\.12\./,
      "sh test/editors/install-nvim.sh sid",
    ),
  ];
}

function probe(name: string, bin: string, version: RegExp, install: string): NvimEditor {
  return probeEditor(name, bin, version, install, cleanEnv());
}

/** The environment without provider keys or another Neovim's settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  return envWithout(/_API_KEY$|^NVIM|^VIM|^MYVIMRC$|^XDG_/);
}

/** A throwaway project with its own HOME; `dispose` removes it. */
export interface SpecProject {
  root: string;
  home: string;
  file(rel: string): string;
  write(rel: string, text: string): void;
  dispose(): void;
}

/** Creates a project folder holding `files`. */
export function createProject(files: Record<string, string> = {}): SpecProject {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-nvim-")));
  const root = path.join(base, "project");
  const home = path.join(base, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const project: SpecProject = {
    root,
    home,
    file: (rel) => path.join(root, rel),
    write: (rel, text) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    },
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
  for (const [rel, text] of Object.entries(files)) project.write(rel, text);
  return project;
}

/** What a spec run printed and how it ended. */
export type SpecResult = RunResult;

/** Options of one spec run. */
export interface SpecOptions {
  project: SpecProject;
  fake: FakeProvider;
  /** Safety mode of the server's config (full_access unless said). */
  safety?: string;
  /** JSON data the spec reads as T.data. */
  data?: unknown;
  /** More initializationOptions for the server (MCP servers, say). */
  serverOptions?: Record<string, unknown>;
  /** Replaces the server command (the health spec's broken-binary case). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs `test/editors/nvim/<spec>` in `editor`; resolves when Neovim exits (or is killed). */
export function runSpec(editor: NvimEditor, spec: string, options: SpecOptions): Promise<SpecResult> {
  const { project, fake } = options;
  const optionsFile = path.join(project.home, "init-options.json");
  writeFileSync(optionsFile, JSON.stringify(fakeProviderOptions(fake, { safety: options.safety ?? "full_access", ...options.serverOptions })));
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    HOME: project.home,
    XDG_CONFIG_HOME: path.join(project.home, ".config"),
    XDG_DATA_HOME: path.join(project.home, ".local/share"),
    XDG_STATE_HOME: path.join(project.home, ".local/state"),
    XDG_CACHE_HOME: path.join(project.home, ".cache"),
    NVIM_LOG_FILE: path.join(project.home, "nvim.log"),
    // For `agent-lsp doctor` (it reads no initializationOptions): the fake accepts any key.
    ANTHROPIC_API_KEY: "sk-ant-test-key-0000",
    AGENT_LSP_TEST_OPTIONS: optionsFile,
    AGENT_LSP_TEST_HELPERS: HELPERS,
    AGENT_LSP_TEST_DATA: JSON.stringify(options.data ?? {}),
    ...options.env,
  };
  const specPath = path.resolve(REPO, "test/editors/nvim", spec);
  // A spec that does not even load must end Neovim too, not leave it waiting headless.
  const load = `lua local ok, err = pcall(dofile, ${JSON.stringify(specPath)}) if not ok then io.stderr:write("[spec] FAILED to load: " .. tostring(err) .. "\\n") vim.cmd("cquit 1") end`;
  return runDetached(editor.bin, ["--headless", "-u", MINIMAL_INIT, "-c", load], { cwd: project.root, env, timeoutMs: options.timeoutMs ?? 60_000 });
}

/** Throws with everything Neovim printed unless the spec passed. */
export function expectPassed(result: SpecResult, spec: string): void {
  if (result.code === 0 && result.stderr.includes("[spec] passed")) return;
  const why = result.timedOut ? "timed out" : `exited ${result.code}`;
  throw new Error(`${spec} ${why}\n--- stderr ---\n${result.stderr}\n--- stdout ---\n${result.stdout}`);
}
