/**
 * Crash safety on the built binary: `agent-lsp tool edit_file` rewriting a 50 MB file is killed
 * with SIGKILL while its temp file is being written. The file must be exactly the old or the new
 * content, never a mix, and the next start of agent-lsp (any tool command) removes the temp file
 * the killed process left behind.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { BINARY } from "../helpers/spawn-server.js";

const TEMP = /\.agent-lsp-tmp-\d+-\d+$/;
const sha = (b: Buffer | string) => createHash("sha1").update(b).digest("hex");

/** Our temp files in the project root. */
const tempsIn = (root: string) => readdirSync(root).filter((n) => TEMP.test(n));

/** Home of the runs: a folder of its own, away from the user's config (and not the project, which would then be the home). */
let home = "";

/** Environment that keeps the run away from the user's own config. */
function env(): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
}

/** Starts the edit and kills it the moment its temp file appears; true when it was caught mid-write. */
async function killMidWrite(root: string): Promise<boolean> {
  const input = JSON.stringify({ path: "big.txt", target_content: "line 0 old", replacement_content: "line 0 new" });
  const child = spawn(process.execPath, [BINARY, "tool", "edit_file", "--input", input, "--mode", "full_access"], {
    cwd: root,
    env: env(),
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let caught = false;
  let running = true;
  void exited.then(() => (running = false));
  while (running && !caught) {
    if (tempsIn(root).length) {
      child.kill("SIGKILL");
      caught = true;
    } else await new Promise((r) => setImmediate(r));
  }
  await exited;
  return caught && tempsIn(root).length > 0;
}

describe.skipIf(process.platform === "win32")("crash safety", () => {
  it("a SIGKILL in the middle of a 50 MB write leaves old or new content and no temp file after the next start", async () => {
    const root = tempProject("agent-lsp-crash-");
    home = tempProject("agent-lsp-crash-home-");
    try {
      await crashAndRestart(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The scenario, in a fresh project. */
async function crashAndRestart(root: string): Promise<void> {
  const body = Array.from({ length: 1_000_000 }, (_, i) => `line ${i} old padding text for size 0123456789`).join("\n");
  const oldText = `${body}\n`;
  const newText = oldText.replace("line 0 old", "line 0 new");
  writeFileSync(path.join(root, "big.txt"), oldText);
  expect(oldText.length).toBeGreaterThan(45_000_000);

  let caught = false;
  for (let attempt = 0; attempt < 5 && !caught; attempt++) {
    writeFileSync(path.join(root, "big.txt"), oldText);
    caught = await killMidWrite(root);
  }
  expect(caught, "the edit was never caught while writing its temp file").toBe(true);

  const after = sha(readFileSync(path.join(root, "big.txt")));
  expect([sha(oldText), sha(newText)]).toContain(after);
  expect(tempsIn(root).length).toBeGreaterThan(0);

  const next = spawnSync(process.execPath, [BINARY, "tool", "list_files", "--input", "{}", "--mode", "full_access"], {
    cwd: root,
    env: env(),
    encoding: "utf8",
  });
  expect(next.status, next.stderr).toBe(0);
  expect(tempsIn(root)).toEqual([]);
  expect(readdirSync(path.join(root, ".agent-lsp", "journal")).filter((n) => n.endsWith(".json"))).toEqual([]);
  expect(sha(readFileSync(path.join(root, "big.txt")))).toBe(after);
}
