/**
 * Sensitive folders (issue 23): credential places and the roots of the machine are asked every
 * time, never remembered, never left to the safety check, and named in the prompt's first words.
 * Every case runs with a home folder outside the project: a home inside it would hide the problem.
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../server/src/config/schema.js";
import { callOf, capability, gateFixture, never, type GateFixture } from "../unit/policy/setup.js";

const readFile = capability("read_only", { name: "read_file" });

let home: string;
let fx: GateFixture;

function touch(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "x");
  return file;
}

async function read(file: string, mode: "ask" | "auto" | "full_access" = "ask") {
  return fx.gate.check(fx.session(mode), callOf(readFile, { path: file }), readFile, never);
}

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-home-")));
  fx = gateFixture({ home });
  expect(fx.root.startsWith(home)).toBe(false);
});

describe("sensitive locations", () => {
  it("a remembered rule for ~/.config does not cover ~/.config/gcloud", async () => {
    const ordinary = touch(path.join(home, ".config", "app", "settings.json"));
    const secret = touch(path.join(home, ".config", "gcloud", "credentials.db"));
    fx.editor.answers.push({ optionId: "allow_always" });
    expect(await read(ordinary)).toEqual({ allowed: true });
    // The ordinary folder is remembered: a second read there is not asked.
    expect(await read(path.join(home, ".config", "app", "other.json"))).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(1);
    fx.editor.answers.push({ optionId: "reject" });
    const decision = await read(secret);
    expect(decision.allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(2);
    expect(fx.editor.permissions[1]!.summary.startsWith("Read a credential file: ~/.config/gcloud/credentials.db")).toBe(true);
  });

  it("\"don't ask again\" on ~/.ssh/config is not offered and leaves ~/.ssh/id_ed25519 asked", async () => {
    const config = touch(path.join(home, ".ssh", "config"));
    const key = touch(path.join(home, ".ssh", "id_ed25519"));
    fx.editor.answers.push({ optionId: "allow_always" });
    expect(await read(config)).toEqual({ allowed: true });
    const first = fx.editor.permissions[0]!;
    expect(first.summary.startsWith("Read a credential file: ~/.ssh/config")).toBe(true);
    expect(first.rememberable).toBe(false);
    expect(fx.editor.statuses().join("\n")).toContain("Allowed this time only");
    fx.editor.answers.push({ optionId: "reject" });
    expect((await read(key)).allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(2);
    // And the same file again: asked again too.
    fx.editor.answers.push({ optionId: "reject" });
    expect((await read(config)).allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(3);
  });

  it("an MCP tool whose path argument names a credential is asked as one, in auto mode too; the credential is never remembered", async () => {
    const key = touch(path.join(home, ".ssh", "id_ed25519"));
    const mcp = { ...capability("external_api", { name: "mcp__files__read" }), kind: "mcp" as const };
    fx.classifier.answer = '{"decision": "allow", "reason": "routine"}';
    fx.editor.answers.push({ optionId: "reject" });
    const decision = await fx.gate.check(fx.session("auto"), callOf(mcp, { path: key }), mcp, never);
    expect(decision.allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.permissions[0]!.summary).toMatch(/credential file: ~\/\.ssh\/id_ed25519/);
    // An ordinary path argument of the same tool is still the server's business (no question in auto).
    expect((await fx.gate.check(fx.session("auto"), callOf(mcp, { path: "/v1/users" }), mcp, never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
    // "Don't ask again" remembers the tool, never the credential: the key is asked again.
    fx.editor.answers.push({ optionId: "allow_always" });
    expect((await fx.gate.check(fx.session("ask"), callOf(mcp, { path: key }), mcp, never)).allowed).toBe(true);
    fx.editor.answers.push({ optionId: "reject" });
    expect((await fx.gate.check(fx.session("ask"), callOf(mcp, { path: key }), mcp, never)).allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(3);
  });

  it("the safety check alone never allows a credential read in auto mode", async () => {
    const secret = touch(path.join(home, ".aws", "credentials"));
    fx.classifier.answer = '{"decision": "allow", "reason": "routine"}';
    fx.editor.answers.push({ optionId: "reject" });
    expect((await read(secret, "auto")).allowed).toBe(false);
    expect(fx.classifier.requests).toHaveLength(0);
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.statuses().join("\n")).toContain("never left to the safety check");
  });

  it("full_access reads a credential file unasked but says so", async () => {
    const secret = touch(path.join(home, ".netrc"));
    expect(await read(secret, "full_access")).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(0);
    expect(fx.editor.statuses().join("\n")).toContain("full_access: Read a credential file: ~/.netrc");
  });

  it("a file directly in the home folder is asked every time (a rule for ~ would cover everything)", async () => {
    const rc = touch(path.join(home, ".bashrc"));
    fx.editor.answers.push({ optionId: "allow_always" }, { optionId: "reject" });
    expect(await read(rc)).toEqual({ allowed: true });
    expect(fx.editor.permissions[0]!.summary.startsWith("Read a file in your home folder: ~/.bashrc")).toBe(true);
    expect((await read(path.join(home, ".profile"))).allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(2);
  });

  it("a system root is never granted wholesale", async () => {
    fx.editor.answers.push({ optionId: "allow_always" }, { optionId: "reject" });
    expect(await read("/etc/hostname")).toEqual({ allowed: true });
    expect(fx.editor.permissions[0]!.summary.startsWith("Read a system file: /etc/hostname")).toBe(true);
    expect((await read("/etc/os-release")).allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(2);
  });

  it("a link inside the project that leads to ~/.ssh is judged by where it leads", async () => {
    touch(path.join(home, ".ssh", "id_rsa"));
    symlinkSync(path.join(home, ".ssh"), path.join(fx.root, "keys"));
    fx.editor.answers.push({ optionId: "reject" });
    expect((await read(path.join(fx.root, "keys", "id_rsa"))).allowed).toBe(false);
    expect(fx.editor.permissions[0]!.summary).toContain("Read a credential file: ~/.ssh/id_rsa");
  });

  it("[policy] sensitive_paths adds places", async () => {
    const vault = touch(path.join(home, "vault", "token.txt"));
    fx.config.policy = { ...DEFAULT_CONFIG.policy, sensitive_paths: ["~/vault"] };
    fx.editor.answers.push({ optionId: "allow_always" }, { optionId: "reject" });
    expect(await read(vault)).toEqual({ allowed: true });
    expect((await read(vault)).allowed).toBe(false);
    expect(fx.editor.permissions.map((p) => p.summary.split(" — ")[0])).toEqual([
      "Read a credential file: ~/vault/token.txt",
      "Read a credential file: ~/vault/token.txt",
    ]);
  });

  it("a command redirected into ~/.ssh is asked every time, even with its program remembered", async () => {
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const run = (command: string) =>
      fx.gate.authorize(fx.session("ask"), callOf(exec, { command }), exec, { kind: "command", command, cwd: fx.root }, never);
    fx.editor.answers.push({ optionId: "allow_always" });
    expect(await run("echo hi")).toEqual({ allowed: true });
    fx.editor.answers.push({ optionId: "reject" });
    expect((await run(`echo key >> ${home}/.ssh/authorized_keys`)).allowed).toBe(false);
    expect(fx.editor.permissions[1]!.summary.startsWith("Change a credential folder: ~/.ssh")).toBe(true);
    // Answered "don't ask again", the next such line is still asked.
    fx.editor.answers.push({ optionId: "allow_always" }, { optionId: "reject" });
    expect(await run(`echo key >> ${home}/.ssh/authorized_keys`)).toEqual({ allowed: true });
    expect((await run(`echo key >> ${home}/.ssh/authorized_keys`)).allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(4);
  });
});
