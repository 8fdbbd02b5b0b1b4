/**
 * How the gate asks: once per action, at the moment the diff or the command exists; what a
 * "don't ask again" covers and what it does not; declines, notes and cancels; plan mode; and the
 * safety check's three answers.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approvalsPath } from "../../../server/src/policy/approvals-file.js";
import type { GatedAction } from "../../../server/src/vocabulary/policy.js";
import { callOf, capability, gateFixture, never, type GateFixture } from "./setup.js";

const writeTool = capability("read_write", { name: "write_file", metadata: { authorizesChanges: true } });

function change(fx: GateFixture, rel: string, newText = "new\n"): Extract<GatedAction, { kind: "file_change" }> {
  const abs = path.resolve(fx.root, rel);
  const external = path.isAbsolute(rel);
  return {
    kind: "file_change",
    summary: `write_file: ${rel} (+1 -1)`,
    diff: `--- a/${rel}\n+++ b/${rel}\n@@ -1 +1 @@\n-old\n+${newText.trim()}\n`,
    files: [{ uri: `file://${abs}`, path: external ? abs : rel, oldText: "old\n", newText }],
    external,
  };
}

describe("file changes", () => {
  it("a diff-authorizing tool starts unasked and is asked once, with the diff and each file's text", async () => {
    const fx = gateFixture();
    const session = fx.session("ask");
    const call = callOf(writeTool, { path: "src/a.ts" });
    expect(await fx.gate.check(session, call, writeTool, never)).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(0);
    fx.editor.answers.push({ optionId: "allow_once", accepted: [{ uri: "file:///x", text: "trimmed" }] });
    const decision = await fx.gate.authorize(session, call, writeTool, change(fx, "src/a.ts"), never);
    expect(decision).toEqual({ allowed: true, accepted: [{ uri: "file:///x", text: "trimmed" }] });
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.permissions[0]).toMatchObject({
      sessionId: "s-1",
      toolCall: { id: call.id, name: "write_file" },
      summary: "write_file: src/a.ts (+1 -1)",
      diff: expect.stringContaining("+new"),
      files: [{ oldText: "old\n", newText: "new\n" }],
    });
  });

  it("a mutating tool that does not authorize its own changes is asked before it runs, and not again for its change", async () => {
    const fx = gateFixture();
    const cap = capability("read_write", { name: "rewrite" });
    const session = fx.session("ask");
    const call = callOf(cap, { path: "src/a.ts" });
    expect((await fx.gate.check(session, call, cap, never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
    expect((await fx.gate.authorize(session, call, cap, change(fx, "src/a.ts"), never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
    // A different call of the same tool is asked again.
    await fx.gate.check(session, callOf(cap, { path: "src/a.ts" }), cap, never);
    expect(fx.editor.permissions).toHaveLength(2);
  });

  it("an outside write by a file tool is decided with its diff: one prompt, not two", async () => {
    const fx = gateFixture();
    const session = fx.session("ask");
    const call = callOf(writeTool, {});
    const outside = path.join(path.sep, "elsewhere-agent-lsp-test", "b.txt");
    expect(await fx.gate.authorize(session, call, writeTool, { kind: "external_path", path: outside, access: "write" }, never)).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(0);
    fx.editor.answers.push({ optionId: "allow_always" });
    expect((await fx.gate.authorize(session, call, writeTool, change(fx, outside), never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.permissions[0]!.summary).toContain("outside the project");
    // "Don't ask again" covered the outside folder for this tool: the next write there is not asked.
    const next = callOf(writeTool, {});
    await fx.gate.authorize(session, next, writeTool, { kind: "external_path", path: outside, access: "write" }, never);
    expect((await fx.gate.authorize(session, next, writeTool, change(fx, outside), never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
  });

  it("in auto mode an outside write is classified once, with the diff", async () => {
    const fx = gateFixture();
    const session = fx.session("auto");
    const call = callOf(writeTool, {});
    const outside = path.join(path.sep, "elsewhere-agent-lsp-test", "c.txt");
    await fx.gate.authorize(session, call, writeTool, { kind: "external_path", path: outside, access: "write" }, never);
    expect(fx.classifier.requests).toHaveLength(0);
    expect((await fx.gate.authorize(session, call, writeTool, change(fx, outside), never)).allowed).toBe(true);
    expect(fx.classifier.requests).toHaveLength(1);
    expect(fx.classifier.requests[0]!.prompt).toContain("+new");
  });

  it("a change to agent-lsp's own settings is asked even in auto mode (the safety check may not allow it) and never remembered", async () => {
    const fx = gateFixture();
    const session = fx.session("auto");
    fx.classifier.answer = '{"decision":"allow","reason":"looks routine"}';
    fx.editor.answers.push({ optionId: "allow_always" });
    await fx.gate.authorize(session, callOf(writeTool), writeTool, change(fx, ".agent-lsp/approvals.toml"), never);
    expect(fx.classifier.requests).toHaveLength(0);
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.statuses().join("\n")).toContain("Allowed this time only: changes to agent-lsp's own settings are always asked");
    await fx.gate.authorize(session, callOf(writeTool), writeTool, change(fx, ".agent-lsp/approvals.toml"), never);
    expect(fx.editor.permissions).toHaveLength(2);
  });
});

describe("don't ask again", () => {
  it("covers that tool under that directory, not another directory or another tool", async () => {
    const fx = gateFixture();
    const session = fx.session("ask");
    fx.editor.answers.push({ optionId: "allow_always" });
    await fx.gate.authorize(session, callOf(writeTool), writeTool, change(fx, "src/a.ts"), never);
    await fx.gate.authorize(session, callOf(writeTool), writeTool, change(fx, "src/deeper/b.ts"), never);
    expect(fx.editor.permissions).toHaveLength(1);
    await fx.gate.authorize(session, callOf(writeTool), writeTool, change(fx, "docs/c.md"), never);
    expect(fx.editor.permissions).toHaveLength(2);
    const edit = capability("read_write", { name: "edit_file", metadata: { authorizesChanges: true } });
    await fx.gate.authorize(session, callOf(edit), edit, change(fx, "src/a.ts"), never);
    expect(fx.editor.permissions).toHaveLength(3);
    // Another session starts with no rules.
    await fx.gate.authorize(fx.session("ask", "operator", "s-2"), callOf(writeTool), writeTool, change(fx, "src/a.ts"), never);
    expect(fx.editor.permissions).toHaveLength(4);
  });

  it("covers a command's program; a line that also runs another program is asked", async () => {
    const fx = gateFixture();
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const session = fx.session("ask");
    const run = (command: string) => fx.gate.authorize(session, callOf(exec), exec, { kind: "command", command, cwd: fx.root }, never);
    fx.editor.answers.push({ optionId: "allow_always" });
    await run("npm test");
    await run("npm run build && npm run lint");
    expect(fx.editor.permissions).toHaveLength(1);
    await run("npm test && curl https://example.com");
    expect(fx.editor.permissions).toHaveLength(2);
    expect(fx.editor.permissions[0]!.summary).toBe("execute_command: npm test");
  });

  it("keeps a remembered program to this project: a cd or a redirect outside it is asked", async () => {
    const fx = gateFixture();
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const session = fx.session("ask");
    const run = (command: string) => fx.gate.authorize(session, callOf(exec), exec, { kind: "command", command, cwd: fx.root }, never);
    fx.editor.answers.push({ optionId: "allow_always" });
    await run("cd src && echo hi > out.txt");
    await run("echo again > src/out.txt 2>&1 && cd src");
    expect(fx.editor.permissions).toHaveLength(1);
    const outside = path.join(path.sep, "elsewhere-agent-lsp-test");
    for (const command of [`cd ${outside} && echo hi`, `echo hi >> ${outside}/profile`, "cd $SOMEWHERE && echo hi", 'echo hi > "$LOG"']) {
      await run(command);
    }
    expect(fx.editor.permissions).toHaveLength(5);
  });

  it("never remembers a command run through a shell or with a substitution", async () => {
    const fx = gateFixture();
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const session = fx.session("ask");
    for (const command of ['bash -c "make"', "echo $(make)", "sudo make"]) {
      fx.editor.answers.push({ optionId: "allow_always" });
      await fx.gate.authorize(session, callOf(exec), exec, { kind: "command", command, cwd: fx.root }, never);
      await fx.gate.authorize(session, callOf(exec), exec, { kind: "command", command, cwd: fx.root }, never);
    }
    expect(fx.editor.permissions).toHaveLength(6);
    expect(fx.editor.statuses().join("\n")).toContain('commands run through "bash" are never remembered');
  });

  it("covers an outside directory for reading; writing there is still asked", async () => {
    const fx = gateFixture();
    const read = capability("read_only", { name: "read_file" });
    const session = fx.session("ask");
    const dir = path.join(path.sep, "elsewhere-agent-lsp-test", "lib");
    fx.editor.answers.push({ optionId: "allow_always" });
    await fx.gate.check(session, callOf(read, { path: path.join(dir, "a.txt") }), read, never);
    await fx.gate.check(session, callOf(read, { path: path.join(dir, "b.txt") }), read, never);
    expect(fx.editor.permissions).toHaveLength(1);
    const tool = capability("read_write", { name: "rewrite" });
    await fx.gate.authorize(session, callOf(tool), tool, { kind: "external_path", path: path.join(dir, "a.txt"), access: "write" }, never);
    expect(fx.editor.permissions).toHaveLength(2);
  });

  it("never overrides a floor", async () => {
    const fx = gateFixture();
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const session = fx.session("ask");
    fx.editor.answers.push({ optionId: "allow_always" });
    await fx.gate.authorize(session, callOf(exec), exec, { kind: "command", command: "rm -rf build", cwd: fx.root }, never);
    const decision = await fx.gate.authorize(session, callOf(exec), exec, { kind: "command", command: "rm -rf /", cwd: fx.root }, never);
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("rm_root") });
    expect(fx.editor.permissions).toHaveLength(1);
  });

  it("with remember_approvals, persists to approvals.toml and a new gate honours it", async () => {
    const fx = gateFixture({ config: { remember_approvals: true } });
    fx.editor.answers.push({ optionId: "allow_always" });
    await fx.gate.authorize(fx.session("ask"), callOf(writeTool), writeTool, change(fx, "src/a.ts"), never);
    const file = readFileSync(approvalsPath(fx.root), "utf8");
    expect(file).toContain('[[file]]\ntool = "write_file"\ndir = "src"');
    const again = gateFixture({ root: fx.root, config: { remember_approvals: true } });
    expect((await again.gate.authorize(again.session("ask", "operator", "s-9"), callOf(writeTool), writeTool, change(fx, "src/b.ts"), never)).allowed).toBe(true);
    expect(again.editor.permissions).toHaveLength(0);
    // With remember_approvals off, the file is not used.
    const off = gateFixture({ root: fx.root });
    await off.gate.authorize(off.session("ask", "operator", "s-10"), callOf(writeTool), writeTool, change(fx, "src/b.ts"), never);
    expect(off.editor.permissions).toHaveLength(1);
  });
});

describe("declines, notes and cancels", () => {
  it("no answer (the client's note) denies without saying the user declined; a real No says they did", async () => {
    const fx = gateFixture();
    fx.editor.answers.push({ optionId: "reject", note: "The editor cannot answer permission prompts (MethodNotFound)." });
    const decision = await fx.gate.authorize(fx.session("ask"), callOf(writeTool), writeTool, change(fx, "src/a.ts"), never);
    expect(decision).toMatchObject({ allowed: false });
    const reason = (decision as { reason: string }).reason;
    expect(reason).toContain("write_file: src/a.ts (+1 -1) was not approved: the user was not asked or gave no answer");
    expect(reason).toContain("MethodNotFound");
    expect(reason).not.toContain("declined");
    expect(fx.editor.statuses().join("\n")).toContain("Counted as No");
    fx.editor.answers.push({ optionId: "reject" });
    const no = await fx.gate.authorize(fx.session("ask"), callOf(writeTool), writeTool, change(fx, "src/b.ts"), never);
    expect(no).toMatchObject({ allowed: false, declined: true, reason: expect.stringContaining("The user declined write_file: src/b.ts") });
  });

  it("a cancel while the prompt is open denies as cancelled and remembers nothing", async () => {
    const fx = gateFixture();
    const controller = new AbortController();
    fx.editor.answers.push(async () => {
      controller.abort();
      return { optionId: "allow_always" };
    });
    const decision = await fx.gate.authorize(fx.session("ask"), callOf(writeTool), writeTool, change(fx, "src/a.ts"), controller.signal);
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("Cancelled") });
    await fx.gate.authorize(fx.session("ask"), callOf(writeTool), writeTool, change(fx, "src/a.ts"), never);
    expect(fx.editor.permissions).toHaveLength(2);
  });

  it("an editor that throws still gets a No, not a crash", async () => {
    const fx = gateFixture();
    fx.editor.answers.push(async () => {
      throw new Error("socket closed");
    });
    const decision = await fx.gate.authorize(fx.session("ask"), callOf(writeTool), writeTool, change(fx, "src/a.ts"), never);
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("socket closed") });
  });
});

describe("commands decided at check", () => {
  it("an exec tool that does not authorize itself is asked from its input, once per call", async () => {
    const fx = gateFixture();
    const exec = capability("exec", { name: "execute_command" });
    const session = fx.session("ask");
    const call = callOf(exec, { command: "make test", cwd: "src" });
    expect((await fx.gate.check(session, call, exec, never)).allowed).toBe(true);
    expect(fx.editor.permissions[0]!.summary).toBe("execute_command: make test (in src)");
    const action: GatedAction = { kind: "command", command: "make test", cwd: path.join(fx.root, "src") };
    expect((await fx.gate.authorize(session, call, exec, action, never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
  });

  it("floors refuse at check, before anyone is asked", async () => {
    const fx = gateFixture();
    const exec = capability("exec", { name: "execute_command" });
    const decision = await fx.gate.check(fx.session("full_access"), callOf(exec, { command: "sudo rm -rf ~" }), exec, never);
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("home folder") });
  });
});

describe("paths in the input", () => {
  it("an MCP tool's path field is not taken for a file: its don't-ask-again covers the tool", async () => {
    const fx = gateFixture();
    const mcp = { ...capability("external_api", { name: "mcp__api__get" }), kind: "mcp" as const };
    const session = fx.session("ask");
    fx.editor.answers.push({ optionId: "allow_always" });
    await fx.gate.check(session, callOf(mcp, { path: "/v1/users" }), mcp, never);
    expect(fx.editor.permissions[0]!.summary).not.toContain("outside the project");
    expect((await fx.gate.check(session, callOf(mcp, { path: "/v2/orders" }), mcp, never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
  });

  it("a built-in tool reading outside the project is asked once, though it also asks itself", async () => {
    const fx = gateFixture();
    const read = capability("read_only", { name: "read_file" });
    const session = fx.session("ask");
    const outside = path.join(path.sep, "elsewhere-agent-lsp-test", "x.txt");
    const call = callOf(read, { path: outside });
    expect((await fx.gate.check(session, call, read, never)).allowed).toBe(true);
    expect((await fx.gate.authorize(session, call, read, { kind: "external_path", path: outside, access: "read" }, never)).allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.permissions[0]!.summary).toContain(`outside the project: ${outside}`);
  });
});

describe("plan mode", () => {
  it.each(["write_file", "edit_file", "replace_in_file", "apply_patch", "delete_file"])("rejects %s even when it claims to be read-only", async (name) => {
    const fx = gateFixture();
    const cap = capability("read_only", { name });
    const decision = await fx.gate.check(fx.session("plan"), callOf(cap, { path: "src/a.ts" }), cap, never);
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("make_plan") });
  });

  it("offers make_plan in plan mode only", () => {
    const fx = gateFixture();
    expect(fx.gate.filter(fx.session("plan")).excludedNames).toEqual([]);
    for (const mode of ["read_only", "ask", "auto", "full_access"] as const) {
      expect(fx.gate.filter(fx.session(mode)).excludedNames).toContain("make_plan");
    }
  });
});

describe("auto mode's safety check", () => {
  const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
  const run = (fx: GateFixture) => fx.gate.authorize(fx.session("auto"), callOf(exec), exec, { kind: "command", command: "npm publish", cwd: fx.root }, never);

  it("allow runs it without a prompt and shows the decision", async () => {
    const fx = gateFixture();
    expect(await run(fx)).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(0);
    expect(fx.editor.statuses()).toEqual(["Safety check allowed: execute_command: npm publish (routine)"]);
    expect(fx.classifier.requests[0]!.prompt).toContain("please fix the failing test");
    expect(fx.classifier.requests[0]!.prompt).toContain("Command: npm publish");
  });

  it("deny refuses with the classifier's reason", async () => {
    const fx = gateFixture();
    fx.classifier.answer = 'Sure. {"decision": "deny", "reason": "publishing was not asked for"}';
    expect(await run(fx)).toMatchObject({ allowed: false, reason: expect.stringContaining("publishing was not asked for") });
    expect(fx.editor.permissions).toHaveLength(0);
  });

  it.each([
    ['{"decision":"ask","reason":"irreversible"}', "irreversible"],
    ["I am not sure about this one.", "could not be read"],
  ])("%j falls back to asking the user", async (answer, shown) => {
    const fx = gateFixture();
    fx.classifier.answer = answer;
    expect(await run(fx)).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.statuses()[0]).toContain(shown);
  });

  it("uses the configured classifier model", async () => {
    const fx = gateFixture({ config: { policy: { lift_floors: [], protected_branches: ["main"], classifier_model: "anthropic/claude-haiku-4-5", classifier_timeout_s: 30, sensitive_paths: [] } } });
    await run(fx);
    expect(fx.classifier.requests[0]!.model).toBe("anthropic/claude-haiku-4-5");
  });
});
