/**
 * Each Neovim of the matrix runs in a terminal (tmux), as a person or a TUI-driven test starts it:
 * the file shows, keys reach it, and its exit code comes back. Neovim 0.10+ from a private folder
 * cannot start its UI's server the usual way (it runs its own executable again, which there is
 * the dynamic loader); its wrapper starts that server headless and attaches with --remote-ui.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { envWithout } from "./editor-probe.js";
import { findEditors } from "./nvim-harness.js";
import { TmuxPane } from "./tmux-pane.js";

const requireAll = process.env.AGENT_LSP_REQUIRE_ALL === "1";
const hasTmux = spawnSync("sh", ["-c", "command -v tmux"]).status === 0;
let pane: TmuxPane | undefined;
let dir: string | undefined;
afterEach(async () => {
  await pane?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
  pane = dir = undefined;
});

for (const editor of findEditors()) {
  describe(editor.name, () => {
    const why = !hasTmux ? "tmux is not installed" : editor.available ? undefined : editor.reason;
    if (why) {
      if (requireAll) it("is installed", () => void expect.fail(`AGENT_LSP_REQUIRE_ALL=1 but ${why}`));
      else it.skip(`skipped: ${why}`, () => undefined);
      return;
    }
    it("runs in a terminal: shows the file, takes keys, exits with its code", { timeout: 60_000 }, async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-nvim-tui-"));
      writeFileSync(path.join(dir, "notes.txt"), "a line a person reads\n");
      const env = { ...envWithout(/^NVIM|^VIM|^MYVIMRC$/), HOME: dir, TERM: "xterm-256color" };
      pane = await TmuxPane.start({
        socket: path.join(dir, "tmux.sock"),
        cwd: dir,
        env,
        command: `${editor.bin} --clean -n notes.txt; echo "exited $?"; sleep 60`,
        width: 80,
        height: 20,
      });
      await pane.waitFor((s) => s.includes("a line a person reads"), { what: "the file on the screen" });
      await pane.sendKeys("o", "typed here", "Escape");
      await pane.waitFor((s) => s.includes("typed here"), { what: "the typed line" });
      await pane.sendKeys(":cq 3", "Enter");
      await pane.waitFor((s) => s.includes("exited 3"), { what: "the exit code" });
    });
  });
}
