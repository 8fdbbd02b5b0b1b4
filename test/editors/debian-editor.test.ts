/**
 * test/editors/install-{nvim,helix,emacs}.sh SUITE: one installer per editor over the shared
 * set-up of debian-editor.sh. A cached install is reused without reaching any mirror (CI keeps
 * .cache/ between runs), its wrapper starts the suite's editor, and a wrapper is replaced in one
 * rename, only when it changed (editor tests may be starting it at that moment).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const requireAll = process.env.AGENT_LSP_REQUIRE_ALL === "1";
/** A mirror that cannot be reached: any download fails the script. */
const NO_MIRROR = { AGENT_LSP_DEBIAN_MIRROR: "file:///nonexistent-agent-lsp-mirror" };

interface Slot {
  editor: "nvim" | "helix" | "emacs";
  suite: string;
  wrapper: string;
  /** Arguments that make the editor print its version, and what that version looks like. */
  versionArgs: string[];
  version: RegExp;
}

const SLOTS: Slot[] = [
  { editor: "nvim", suite: "trixie", wrapper: "nvim", versionArgs: ["--version"], version: /^NVIM v0\.10\./ },
  { editor: "nvim", suite: "sid", wrapper: "nvim", versionArgs: ["--version"], version: /^NVIM v0\.12\./ },
  { editor: "helix", suite: "trixie", wrapper: "hx", versionArgs: ["--version"], version: /^helix 25\.01/ },
  { editor: "helix", suite: "sid", wrapper: "hx", versionArgs: ["--version"], version: /^helix 25\.07/ },
  { editor: "emacs", suite: "trixie", wrapper: "emacs", versionArgs: ["--batch", "-Q", "--eval", "(princ emacs-version)"], version: /^30\./ },
];

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function install(editor: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync("sh", [path.join(HERE, `install-${editor}.sh`), ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

/** A private folder sharing the repository cache's unpacked root (no copy of the editor). */
function folderOver(cache: string): string {
  dir = mkdtempSync(path.join(tmpdir(), "agent-lsp-install-"));
  symlinkSync(path.join(cache, "root"), path.join(dir, "root"));
  if (existsSync(path.join(cache, "version"))) copyFileSync(path.join(cache, "version"), path.join(dir, "version"));
  return dir;
}

describe("install-<editor>.sh SUITE", () => {
  it.each(["nvim", "helix", "emacs"])("%s: without a suite, or with one that is no suite name, says how to call it", (editor) => {
    for (const args of [[], ["trixie main"]]) {
      const r = install(editor, args, NO_MIRROR);
      expect(r.status).toBe(2);
      expect(r.err).toContain(`usage: test/editors/install-${editor}.sh SUITE [DIR]`);
    }
  });

  for (const slot of SLOTS) {
    const cache = path.join(REPO, `.cache/${slot.editor}-${slot.suite}`);
    const installed = existsSync(path.join(cache, "root"));
    const name = `${slot.editor} from ${slot.suite}: a cached install is reused without a mirror and starts the suite's editor`;
    if (!installed && !requireAll) {
      it.skip(`${name} (not installed: sh test/editors/install-${slot.editor}.sh ${slot.suite})`, () => {});
      continue;
    }
    it(name, () => {
      expect(installed, `${cache} is missing (sh test/editors/install-${slot.editor}.sh ${slot.suite})`).toBe(true);
      const folder = folderOver(cache);
      const r = install(slot.editor, [slot.suite, folder], NO_MIRROR);
      const wrapper = path.join(folder, "bin", slot.wrapper);
      expect(r, r.err).toMatchObject({ status: 0, out: wrapper });
      const v = spawnSync(wrapper, slot.versionArgs, { encoding: "utf8", timeout: 30_000 });
      expect(v.stdout.split("\n")[0], v.stderr).toMatch(slot.version);
      expect(readFileSync(wrapper, "utf8")).toContain(`Debian ${slot.suite}'s`);
    });
  }

  const nvim = path.join(REPO, ".cache/nvim-trixie");
  it.skipIf(!existsSync(path.join(nvim, "root")) && !requireAll)("a wrapper is rewritten only when it changed, and then by one rename", () => {
    const folder = folderOver(nvim);
    const wrapper = path.join(folder, "bin/nvim");
    expect(install("nvim", ["trixie", folder], NO_MIRROR).status).toBe(0);
    const first = statSync(wrapper).ino;
    expect(install("nvim", ["trixie", folder], NO_MIRROR).status).toBe(0);
    expect(statSync(wrapper).ino).toBe(first);
    const good = readFileSync(wrapper, "utf8");
    writeFileSync(wrapper, "#!/bin/sh\nexit 1\n");
    expect(install("nvim", ["trixie", folder], NO_MIRROR).status).toBe(0);
    expect(statSync(wrapper).ino).not.toBe(first);
    expect(readFileSync(wrapper, "utf8")).toBe(good);
  });
});
