/** The sandbox's private folders of servers that were killed are removed by the next server. */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeFoldersOfGoneServers } from "../../../server/src/exec/sandbox/covers.js";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A pid that named a process a moment ago and names none now. */
function goneProcessPid(): number {
  const child = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

describe("removeFoldersOfGoneServers", () => {
  it("removes a gone server's folder (its unreadable cover file too) and keeps everything else", () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "covers-test-"));
    temps.push(tmp);
    const gone = goneProcessPid();
    const living = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const make = (name: string) => {
        mkdirSync(path.join(tmp, name));
        const cover = path.join(tmp, name, "empty-file");
        writeFileSync(cover, "");
        chmodSync(cover, 0o000);
        return path.join(tmp, name);
      };
      const stale = make(`agent-lsp-sandbox-${gone}-abc123`);
      const mine = make(`agent-lsp-sandbox-${process.pid}-def456`);
      const running = make(`agent-lsp-sandbox-${living.pid}-ghi789`);
      const oldStyle = make("agent-lsp-sandbox-Xy12Zq");
      const unrelated = make("something-else");
      // A link planted under a gone pid's name: the link is no folder of ours, its target is kept.
      const target = make("target");
      symlinkSync(target, path.join(tmp, `agent-lsp-sandbox-${gone}-link`));

      removeFoldersOfGoneServers(tmp);

      expect(existsSync(stale)).toBe(false);
      for (const kept of [mine, running, oldStyle, unrelated, target]) expect(existsSync(kept)).toBe(true);
      expect(existsSync(path.join(target, "empty-file"))).toBe(true);
      expect(existsSync(path.join(tmp, `agent-lsp-sandbox-${gone}-link`))).toBe(true);
    } finally {
      living.kill();
    }
  });

  it("does nothing when the temporary folder cannot be read", () => {
    expect(() => removeFoldersOfGoneServers(path.join(os.tmpdir(), "no-such-folder-for-covers"))).not.toThrow();
  });
});
