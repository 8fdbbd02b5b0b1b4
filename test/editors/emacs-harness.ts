/**
 * Runs the ERT specs of test/editors/emacs/ in real batch Emacs against the built server and
 * the fake provider. The package is first byte-compiled into a temporary folder (a warning
 * fails the run); each spec is then one `emacs --batch -Q` process in a throwaway project and
 * HOME that loads the compiled package and runs one ERT test.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fakeProviderOptions } from "../helpers/agent-setup.js";
import type { FakeProvider } from "../helpers/fake-provider/index.js";
import { REPO, SERVER_BUNDLE, type SpecProject } from "./nvim-harness.js";
import { envWithout, probeEditor, type ProbedEditor } from "./editor-probe.js";
import { runDetached, type RunResult } from "./run-detached.js";

const PACKAGE = path.join(REPO, "editors/emacs");
const SPECS = path.join(REPO, "test/editors/emacs");

/** An Emacs the suite runs on. */
export type EmacsEditor = ProbedEditor;

/**
 * The two Emacsen of the matrix: Debian bookworm's emacs-nox (28.2) and trixie's 30 unpacked by
 * `test/editors/install-emacs.sh trixie`. AGENT_LSP_EMACS_BOOKWORM / AGENT_LSP_EMACS_TRIXIE
 * point elsewhere.
 */
export function findEmacsen(): EmacsEditor[] {
  return [
    probe("Emacs 28 (Debian bookworm)", process.env.AGENT_LSP_EMACS_BOOKWORM ?? "/usr/bin/emacs", /^GNU Emacs 28\./, "apt-get install -y emacs-nox"),
    probe(
      "Emacs 30 (Debian trixie)",
      process.env.AGENT_LSP_EMACS_TRIXIE ?? path.join(REPO, ".cache/emacs-trixie/bin/emacs"),
      /^GNU Emacs 30\./,
      "sh test/editors/install-emacs.sh trixie",
    ),
  ];
}

function probe(name: string, bin: string, version: RegExp, install: string): EmacsEditor {
  return probeEditor(name, bin, version, install, cleanEnv());
}

/** The environment without provider keys or the user's Emacs settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  return envWithout(/_API_KEY$|^EMACS|^XDG_|^INSIDE_EMACS$/);
}

/**
 * Whether `editor` has eglot: built in from Emacs 29, from ELPA before (Debian: elpa-eglot),
 * where the eglot test finds it.
 */
export function hasEglot(editor: EmacsEditor): boolean {
  const lisp = `(progn (dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*")) (add-to-list 'load-path dir t)) (kill-emacs (if (require 'eglot nil t) 0 1)))`;
  return spawnSync(editor.bin, ["--batch", "-Q", "--eval", lisp], { env: cleanEnv(), timeout: 30_000 }).status === 0;
}

/** What an Emacs run printed and how it ended. */
export type EmacsResult = RunResult;

/** Runs `emacs --batch -Q ARGS` in `cwd`; resolves when it exits (or is killed). */
export function runEmacs(editor: EmacsEditor, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<EmacsResult> {
  return runDetached(editor.bin, ["--batch", "-Q", ...args], { cwd: options.cwd, env: { ...cleanEnv(), ...options.env }, timeoutMs: options.timeoutMs ?? 60_000 });
}

/**
 * Lisp that turns native compilation off: no background compiles of the package, and no
 * trampolines compiled for advised primitives (the specs advise `message', `read-event' ...),
 * which would start a compiler subprocess.
 */
export const NO_NATIVE =
  "(setq native-comp-deferred-compilation nil native-comp-jit-compilation nil native-comp-enable-subr-trampolines nil comp-enable-subr-trampolines nil)";

/**
 * Byte-compiles the package into a new folder with warnings as errors. Returns the folder and
 * what Emacs printed; `ok` is false when anything failed or warned.
 */
export async function compilePackage(editor: EmacsEditor): Promise<{ dir: string; ok: boolean; output: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-elc-"));
  for (const f of readdirSync(PACKAGE).filter((f) => f.endsWith(".el"))) copyFileSync(path.join(PACKAGE, f), path.join(dir, f));
  const lisp = `(progn ${NO_NATIVE}
    (setq byte-compile-error-on-warn t)
    (let ((failed nil))
      (dolist (f (directory-files ${JSON.stringify(dir)} t "\\\\.el\\\\'"))
        (unless (byte-compile-file f) (setq failed t)))
      (kill-emacs (if failed 1 0))))`;
  const res = await runEmacs(editor, ["-L", dir, "--eval", lisp], { cwd: dir, env: { HOME: dir }, timeoutMs: 120_000 });
  const output = res.stdout + res.stderr;
  const ok = res.code === 0 && !/Warning|Error/.test(output.replace(/^.*Wrote .*$/gm, ""));
  return { dir, ok, output };
}

/** Runs checkdoc on every file of the package; resolves with what it reported. */
export async function checkdoc(editor: EmacsEditor): Promise<string> {
  const lisp = `(progn (require 'checkdoc) (setq checkdoc-spellcheck-documentation-flag nil)
    (dolist (f (directory-files ${JSON.stringify(PACKAGE)} t "\\\\.el\\\\'")) (checkdoc-file f)))`;
  const res = await runEmacs(editor, ["-L", PACKAGE, "--eval", lisp], { cwd: PACKAGE, env: { HOME: os.tmpdir() } });
  return (res.stdout + res.stderr).trim();
}

/** Options of one spec run. */
export interface EmacsSpecOptions {
  project: SpecProject;
  fake: FakeProvider;
  /** The folder holding the compiled package. */
  compiled: string;
  /** Safety mode of the server's config (full_access unless said). */
  safety?: string;
  /** More server settings (initializationOptions). */
  settings?: Record<string, unknown>;
  data?: unknown;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs the ERT test `test` of `test/editors/emacs/<spec>` in `editor`. */
export function runSpec(editor: EmacsEditor, spec: string, test: string, options: EmacsSpecOptions): Promise<EmacsResult> {
  const { project, fake } = options;
  const optionsFile = path.join(project.home, "init-options.json");
  writeFileSync(optionsFile, JSON.stringify(fakeProviderOptions(fake, { safety: options.safety ?? "full_access", ...options.settings })));
  const env: NodeJS.ProcessEnv = {
    HOME: project.home,
    // For `agent-lsp doctor` (it reads no initializationOptions): the fake accepts any key.
    ANTHROPIC_API_KEY: "sk-ant-test-key-0000",
    AGENT_LSP_TEST_OPTIONS: optionsFile,
    AGENT_LSP_TEST_SERVER: SERVER_BUNDLE,
    AGENT_LSP_TEST_REPO: REPO,
    AGENT_LSP_TEST_DATA: JSON.stringify(options.data ?? {}),
    ...options.env,
  };
  const args = [
    "--eval",
    NO_NATIVE,
    "-L",
    options.compiled,
    "-L",
    SPECS,
    "-l",
    "agent-lsp-test",
    "-l",
    path.join(SPECS, spec),
    "--eval",
    `(ert-run-tests-batch-and-exit '(member ${test}))`,
  ];
  return runEmacs(editor, args, { cwd: project.root, env, timeoutMs: options.timeoutMs ?? 90_000 });
}

/** Throws with everything Emacs printed unless the ERT test passed. */
export function expectPassed(result: EmacsResult, what: string): void {
  if (result.code === 0 && /Ran 1 tests?, 1 results? as expected/.test(result.stdout + result.stderr)) return;
  const why = result.timedOut ? "timed out" : `exited ${result.code}`;
  throw new Error(`${what} ${why}\n--- stderr ---\n${result.stderr}\n--- stdout ---\n${result.stdout}`);
}

/** Removes a compiled package folder. */
export function removeCompiled(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
