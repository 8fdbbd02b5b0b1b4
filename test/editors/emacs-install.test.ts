/**
 * The install forms README.md and docs/emacs.md give for Emacs, each evaluated as written in a
 * clean `emacs -Q` with a throwaway HOME whose ~/src/agent-lsp is this checkout (a git copy of
 * its Emacs files for the forms that install from git); and the server installed from the
 * checkout, never from the registry. A form is marked in the docs by an
 * `<!-- emacs-install: NAME -->` comment before its elisp block.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findEmacsen, NO_NATIVE, runEmacs, type EmacsEditor } from "./emacs-harness.js";
import { REPO } from "./nvim-harness.js";
import { requireAll, TIMEOUT } from "./emacs-suite.js";

const DOCS = ["README.md", "docs/emacs.md"];
const FORMS = ["load-path", "use-package", "vc", "package-vc"];
/** The placeholder the git forms use for the clone's absolute path. */
const CLONE_PLACEHOLDER = "/home/you/src/agent-lsp";

/** The marked elisp blocks of a doc: name -> code. */
function installForms(doc: string): Map<string, string> {
  const text = readFileSync(path.join(REPO, doc), "utf8");
  const forms = new Map<string, string>();
  for (const m of text.matchAll(/<!-- emacs-install: (\S+) -->\s*```elisp\n([\s\S]*?)```/g)) forms.set(m[1]!, m[2]!);
  return forms;
}

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** A throwaway HOME whose ~/src/agent-lsp is the checkout, or a git repository of its Emacs files. */
function home(git: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-install-"));
  homes.push(dir);
  const clone = path.join(dir, "src/agent-lsp");
  mkdirSync(path.dirname(clone), { recursive: true });
  if (!git) {
    symlinkSync(REPO, clone);
    return dir;
  }
  for (const sub of ["editors/emacs", "test/editors/emacs"]) {
    mkdirSync(path.join(clone, sub), { recursive: true });
    for (const f of readdirSync(path.join(REPO, sub)).filter((f) => f.endsWith(".el"))) copyFileSync(path.join(REPO, sub, f), path.join(clone, sub, f));
  }
  const git_ = (...args: string[]) => execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=test", ...args], { cwd: clone, stdio: "ignore" });
  git_("init", "-q");
  git_("add", "-A");
  git_("commit", "-qm", "the package");
  return dir;
}

/** Loads `form` (written to a file, as a user's init would hold it) and then `check`, which prints a JSON report. */
async function evaluate(editor: EmacsEditor, homeDir: string, form: string, check: string, before = ""): Promise<Record<string, unknown>> {
  const file = path.join(homeDir, "install-form.el");
  writeFileSync(file, form.replaceAll(CLONE_PLACEHOLDER, path.join(homeDir, "src/agent-lsp")));
  const res = await runEmacs(editor, ["--eval", `(progn ${NO_NATIVE} (setq package-native-compile nil) ${before})`, "-l", file, "--eval", `(progn (require (quote json)) (princ (concat "REPORT" (json-encode ${check}))))`], {
    cwd: homeDir,
    env: { HOME: homeDir },
    timeoutMs: 240_000,
  });
  const report = /REPORT(.*)$/m.exec(res.stdout);
  if (res.code !== 0 || !report) throw new Error(`the form failed (exit ${res.code}):\n${form}\n--- stderr ---\n${res.stderr}\n--- stdout ---\n${res.stdout}`);
  return JSON.parse(report[1]!) as Record<string, unknown>;
}

/**
 * Lisp: what a loaded package with the keys and the mode set up looks like. C-c a is the command
 * map, or (use-package's :bind-keymap) a command that loads the package and then reads the map.
 */
const LOADED = `(list (cons "feature" (if (featurep 'agent-lsp) t :json-false))
                      (cons "key" (let ((b (key-binding (kbd "C-c a")))) (if (or (keymapp b) (commandp b)) t :json-false)))
                      (cons "mode" (and (boundp 'agent-lsp-safety-mode) agent-lsp-safety-mode)))`;

describe("the docs", () => {
  for (const doc of DOCS) {
    it(`${doc} gives every install form and installs the server from the checkout`, () => {
      expect([...installForms(doc).keys()].sort()).toEqual([...FORMS].sort());
      const text = readFileSync(path.join(REPO, doc), "utf8");
      expect(text).toContain("npm install -g .");
      const emacs = doc === "README.md" ? text.slice(text.indexOf("## Emacs"), text.indexOf("## Helix")) : text;
      expect(emacs).not.toContain("npm install -g agent-lsp");
    });
  }
  it("the package itself never says to install the server from the registry", () => {
    for (const f of readdirSync(path.join(REPO, "editors/emacs"))) expect(readFileSync(path.join(REPO, "editors/emacs", f), "utf8")).not.toContain("npm install -g agent-lsp");
  });
  it("what npm install -g . links is the bundle npm install builds", () => {
    // Not run here: `npm install -g .` runs the package's prepare script, which rebuilds
    // server/dist under the other editor tests running at the same time.
    const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.bin["agent-lsp"]).toBe("server/dist/agent-lsp.js");
    expect(pkg.scripts.prepare).toContain("server/build.mjs");
  });
});

for (const editor of findEmacsen()) {
  describe(editor.name, () => {
    if (!editor.available) {
      if (requireAll) it("is installed", () => { throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`); });
      else it.skip(`skipped: ${editor.reason}`, () => undefined);
      return;
    }
    const emacs30 = /30/.test(editor.name);
    for (const doc of DOCS) {
      const forms = installForms(doc);
      it(`${doc}: the load-path form loads the package, binds C-c a and sets the mode`, { timeout: TIMEOUT }, async () => {
        expect(await evaluate(editor, home(false), forms.get("load-path")!, LOADED)).toEqual({ feature: true, key: true, mode: "ask" });
      });

      it(`${doc}: the use-package form${emacs30 ? "" : " (use-package from Debian's elpa-use-package, as from ELPA)"} autoloads the commands and loads on use`, { timeout: TIMEOUT }, async () => {
        // Emacs 28 has no use-package: the docs say to install it; Debian's package stands in for ELPA.
        const elpa = emacs30 ? "" : `(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*")) (add-to-list 'load-path dir t))`;
        const check = `(list (cons "lazy" (if (and (fboundp 'agent-lsp-chat) (not (featurep 'agent-lsp))) t :json-false))
                             (cons "loaded" (progn (require 'agent-lsp) ${LOADED})))`;
        expect(await evaluate(editor, home(false), forms.get("use-package")!, check, elpa)).toEqual({ lazy: true, loaded: { feature: true, key: true, mode: "ask" } });
      });

      // The git forms are documented for Emacs 30 (package-vc came in 29, :vc in use-package in
      // 30): on 28 there is nothing of theirs to run, and a skip would read as a gap in CI.
      for (const name of emacs30 ? ["vc", "package-vc"] : []) {
        it(`${doc}: the ${name} form installs from git, byte-compiling editors/emacs and nothing else, without a warning of its own`, { timeout: 300_000 }, async () => {
          const check = `(let* ((dir (expand-file-name "elpa/agent-lsp/" user-emacs-directory)))
            (require 'agent-lsp)
            (list (cons "feature" (if (featurep 'agent-lsp) t :json-false))
                  (cons "elc" (vconcat (mapcar (lambda (f) (file-relative-name f dir)) (directory-files-recursively dir "\\\\.elc\\\\'"))))
                  (cons "log" (if (get-buffer "*Compile-Log*") (with-current-buffer "*Compile-Log*" (buffer-string)) ""))))`;
          const report = (await evaluate(editor, home(true), forms.get(name)!, check)) as { feature: boolean; elc: string[]; log: string };
          expect(report.feature).toBe(true);
          const sources = readdirSync(path.join(REPO, "editors/emacs")).filter((f) => f.endsWith(".el")).map((f) => `editors/emacs/${f}c`).sort();
          // Only the package's own files are compiled; package-vc's generated autoload files sit at the top.
          expect(report.elc.filter((f) => f.includes("/")).sort()).toEqual(sources);
          // package-vc's own generated files (autoloads, -pkg) warn about lexical-binding on Emacs 30; nothing of ours may.
          const ours = report.log.split("\n").filter((l) => /Warning|Error/.test(l) && !/agent-lsp-(autoloads|pkg)\.el/.test(l));
          expect(ours).toEqual([]);
        });
      }
    }
  });
}
