/**
 * The gate on top of the sandbox (issue 27, item 2, "Policy on top"), with the real tool, the
 * real gate and the real sandbox: in `ask` a remembered program runs unasked only inside the
 * sandbox (where a credential cannot be read however the line is written), leaving it is asked
 * every time with the model's reason, and where the sandbox cannot run a remembered program is
 * asked again; in `auto` a sandboxed command needs no safety check and an unsandboxed one gets it.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SafetyMode } from "../../server/src/config/schema.js";
import { sandboxFor, SECRET, skipWithoutSandbox } from "../helpers/sandbox.js";
import { commandGate, type CommandGate } from "./command-gate.js";

/** PATH without the folders that hold bwrap: the sandbox cannot run. */
const WITHOUT_BWRAP = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => !existsSync(path.join(dir, "bwrap"))).join(path.delimiter);

let gate: CommandGate | undefined;
afterEach(() => {
  gate?.dispose();
  gate = undefined;
});

/** A gate whose commands run in the sandbox (`auto`), with a key in the fake home's ~/.ssh. */
function sandboxedGate(mode: SafetyMode, env: NodeJS.ProcessEnv = {}): CommandGate {
  gate = commandGate(mode, () => env, { under: "/var/tmp", settings: (home) => sandboxFor(home) });
  mkdirSync(path.join(gate.home, ".ssh"));
  writeFileSync(path.join(gate.home, ".ssh", "id_rsa"), `${SECRET}\n`);
  return gate;
}

describe.skipIf(skipWithoutSandbox())("ask mode on top of the sandbox", () => {
  it("a remembered program runs unasked inside the sandbox", async () => {
    const g = sandboxedGate("ask");
    await g.remember("cat");
    writeFileSync(path.join(g.root, "notes.txt"), "plain notes\n");
    const ran = await g.run("cat notes.txt");
    expect(ran.prompts).toBe(0);
    expect(ran.text).toMatch(/^Exit code: 0 \([\d.]+ s, sandboxed\)\n\nplain notes/);
  });

  it("a credential is still asked about, and even with a Yes the sandbox keeps it unreadable", async () => {
    const g = sandboxedGate("ask");
    await g.remember("cat");
    const key = path.join(g.home, ".ssh", "id_rsa");
    g.editor.answers.push({ optionId: "allow_once" });
    const ran = await g.run(`cat ${key}`);
    expect(ran.prompts).toBe(1);
    expect(ran.summary).toMatch(/^Read a credential (file|folder)/);
    expect(ran.text).not.toContain(SECRET);
    expect(ran.text).toContain(`The sandbox refused ${key}: it is hidden from commands`);
  });

  it("a command not remembered is asked, and the prompt says it runs sandboxed", async () => {
    const g = sandboxedGate("ask");
    const asked = await g.run("echo hi");
    expect(asked.prompts).toBe(1);
    expect(asked.summary).toMatch(/^execute_command: echo hi — sandboxed/);
  });

  it("leaving the sandbox is asked every time with the model's reason, even for a remembered program", async () => {
    const g = sandboxedGate("ask");
    await g.remember("touch");
    const outside = path.join(g.outside, "written");
    const declined = await g.run(`touch ${outside}`, undefined, { outside_sandbox: "it writes a file outside the project" });
    expect(declined.prompts).toBe(1);
    expect(declined.summary).toContain("— outside the sandbox: it writes a file outside the project");
    expect(declined.summary).toContain("it runs outside the sandbox (it writes a file outside the project), which is asked every time");
    expect(declined.text).toMatch(/^Command not run: The user declined/);
    expect(existsSync(outside)).toBe(false);

    g.editor.answers.push({ optionId: "allow_always" });
    const allowed = await g.run(`touch ${outside}`, undefined, { outside_sandbox: "it writes a file outside the project" });
    expect(allowed.text).toMatch(/not sandboxed: approved to run outside the sandbox: it writes a file outside the project/);
    expect(existsSync(outside)).toBe(true);
    // "Don't ask again" did not cover leaving the sandbox: the next time is asked again.
    expect((await g.run(`touch ${outside}`, undefined, { outside_sandbox: "again" })).prompts).toBe(1);
  });

  it("where the sandbox cannot run, a remembered program is asked again and the prompt says why", async () => {
    const g = sandboxedGate("ask", { PATH: WITHOUT_BWRAP });
    await g.remember("echo");
    const asked = await g.run("echo hi");
    expect(asked.prompts).toBe(1);
    expect(asked.summary).toContain("— not sandboxed: bwrap is not installed");
    expect(asked.summary).toContain("commands outside the sandbox are asked every time");
  });
});

describe.skipIf(skipWithoutSandbox())("auto mode on top of the sandbox", () => {
  it("a sandboxed command runs without the safety check", async () => {
    const g = sandboxedGate("auto");
    const ran = await g.run("echo hi > made.txt");
    expect(g.classifier.requests).toEqual([]);
    expect(ran.prompts).toBe(0);
    expect(existsSync(path.join(g.root, "made.txt"))).toBe(true);
  });

  it("an unsandboxed command goes to the safety check, which sees why", async () => {
    const g = sandboxedGate("auto", { PATH: WITHOUT_BWRAP });
    await g.run("echo hi > made.txt");
    expect(g.classifier.requests).toHaveLength(1);
    expect(g.classifier.requests[0]!.prompt).toContain("not sandboxed: bwrap is not installed");
  });

  it("a command that asks to leave the sandbox goes to the safety check with its reason", async () => {
    const g = sandboxedGate("auto");
    g.classifier.answer = '{"decision": "deny", "reason": "not needed"}';
    const refused = await g.run("echo hi", undefined, { outside_sandbox: "needs the network" });
    expect(g.classifier.requests).toHaveLength(1);
    expect(g.classifier.requests[0]!.prompt).toContain("outside the sandbox: needs the network");
    expect(refused.text).toMatch(/^Command not run: The safety check refused/);
  });
});
