/**
 * The built server finds the shell parser's WebAssembly (copied beside the bundle by
 * server/build.mjs) and judges commands with it; a copy of the bundle without those files refuses
 * every command with the reason instead of running it unchecked or crashing.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BINARY } from "../helpers/spawn-server.js";

const exec = promisify(execFile);
let base: string;
let root: string;
let home: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-bundle-")));
  root = path.join(base, "project");
  home = path.join(base, "home");
  for (const dir of [root, home]) mkdirSync(dir);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** `agent-lsp doctor` with `binary`: its exit code and report. */
async function doctor(binary: string): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, ".state") };
  return exec(process.execPath, [binary, "doctor"], { cwd: root, env }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );
}

/** `agent-lsp tool execute_command` with `binary`, in full_access: only the floors stand in the way. */
async function run(binary: string, command: string): Promise<{ isError: boolean; text: string }> {
  const args = [binary, "tool", "execute_command", "--input", JSON.stringify({ command }), "--mode", "full_access"];
  const out = await exec(process.execPath, args, { cwd: root, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") } }).catch((err: { stdout: string }) => err);
  const result = JSON.parse(out.stdout) as { isError: boolean; content: { text: string }[] };
  return { isError: result.isError, text: result.content.map((c) => c.text).join("\n") };
}

describe("the bundle's shell parser", () => {
  it("is found beside the bundle and sees a command hidden in a parameter expansion", { timeout: 60_000 }, async () => {
    expect(existsSync(BINARY)).toBe(true);
    expect(existsSync(path.join(path.dirname(BINARY), "tree-sitter-bash.wasm"))).toBe(true);
    const hit = await run(BINARY, "echo ${X:=`rm -rf ~`}");
    expect(hit.isError).toBe(true);
    expect(hit.text).toContain('safety floor ("rm_root")');
    expect(existsSync(home)).toBe(true);
    expect(await run(BINARY, "echo parsed")).toEqual({ isError: false, text: expect.stringContaining("parsed") });
    const report = await doctor(BINARY);
    expect(report.stdout).toContain(`shell parser: tree-sitter-bash (${path.join(path.dirname(BINARY), "web-tree-sitter.wasm")}`);
  });

  it("missing, every command is refused with the reason and nothing runs", { timeout: 60_000 }, async () => {
    const copy = path.join(base, "dist-without-wasm");
    cpSync(path.dirname(BINARY), copy, { recursive: true, filter: (src) => !src.endsWith(".wasm") });
    const refused = await run(path.join(copy, path.basename(BINARY)), "touch ran");
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("the shell parser (tree-sitter-bash) could not be loaded");
    expect(existsSync(path.join(root, "ran"))).toBe(false);
    const report = await doctor(path.join(copy, path.basename(BINARY)));
    expect(report.code).toBe(1);
    expect(report.stdout).toMatch(/^ERROR shell parser: the shell parser \(tree-sitter-bash\) could not be loaded: .*every command is refused/m);
  });
});
