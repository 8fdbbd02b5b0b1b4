/**
 * Issue 22: a remembered program is approved for this project only, and "this project" is where
 * the bytes land, not the name: a redirection or a writer's file argument that goes through a
 * symlink (or a `..` after one) to a file outside the project is asked as a write outside it.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandGate, type CommandGate } from "./command-gate.js";

let t: CommandGate | undefined;
afterEach(() => {
  t?.dispose();
  t = undefined;
});

/**
 * A project with `link-file` -> an outside file, `link-dir` -> an outside folder (holding
 * `victim.txt` and `sub/`), `deep` -> `link-dir/sub`, and a plain `a.txt`; every writer remembered.
 */
async function linkedProject(): Promise<CommandGate> {
  const g = (t = commandGate("ask"));
  mkdirSync(path.join(g.outside, "sub"));
  writeFileSync(path.join(g.outside, "victim.txt"), "precious\n");
  writeFileSync(path.join(g.root, "a.txt"), "a\n");
  symlinkSync(path.join(g.outside, "victim.txt"), path.join(g.root, "link-file"));
  symlinkSync(g.outside, path.join(g.root, "link-dir"));
  symlinkSync(path.join(g.outside, "sub"), path.join(g.root, "deep"));
  await g.remember("echo", "tee", "cp", "mv", "touch", "dd", "sed", "truncate", "install", "ln", "rm", "mkdir");
  return g;
}

/** The outside folder, as a listing of names and contents. */
function outsideState(g: CommandGate): string {
  const victim = path.join(g.outside, "victim.txt");
  return [existsSync(victim) ? readFileSync(victim, "utf8") : "<gone>", existsSync(path.join(g.outside, "new.txt")), existsSync(path.join(g.outside, "escape.txt"))].join("|");
}

describe("with the programs remembered, a write that lands outside the project is asked", () => {
  it.each([
    ["redirect through a linked file", "echo pwned > link-file"],
    ["append through a linked file", "echo pwned >> link-file"],
    ["redirect into a linked folder", "echo pwned > link-dir/new.txt"],
    ["`..` after a link climbs from its target", "echo pwned > deep/../escape.txt"],
    ["tee", "echo pwned | tee link-file"],
    ["cp onto a linked file", "cp a.txt link-file"],
    ["cp into a linked folder", "cp a.txt link-dir"],
    ["cp -t a linked folder", "cp -t link-dir a.txt"],
    ["mv into a linked folder", "mv a.txt link-dir/new.txt"],
    ["mv out of a linked folder", "mv link-dir/victim.txt here.txt"],
    ["touch", "touch link-dir/new.txt"],
    ["dd of=", "dd if=a.txt of=link-file"],
    ["sed -i", "sed -i s/precious/pwned/ link-file"],
    ["truncate", "truncate -s 0 link-file"],
    ["install", "install a.txt link-dir/new.txt"],
    ["rm in a linked folder", "rm link-dir/victim.txt"],
    ["a link made and written in one line", `ln -s ${"../outside/victim.txt"} fresh && echo pwned > fresh`],
    ["cp to an outside path by name", "cp a.txt ../outside/new.txt"],
  ])("%s: %s", async (_name, command) => {
    const g = await linkedProject();
    const before = outsideState(g);
    const outcome = await g.run(command);
    expect(outcome.prompts).toBe(1);
    expect(outcome.text).toContain("Command not run: The user declined");
    expect(outsideState(g)).toBe(before);
  });

  it("a Yes, don't ask again remembers the real folder, not the link", async () => {
    const g = await linkedProject();
    g.editor.answers.push({ optionId: "allow_always" });
    expect((await g.run("echo one >> link-file")).prompts).toBe(1);
    expect(g.editor.statuses().join("\n")).toContain(`reading and writing under ${g.outside}`);
    expect(readFileSync(path.join(g.outside, "victim.txt"), "utf8")).toBe("precious\none\n");
    // Now that folder is approved, by any name.
    expect((await g.run(`echo two >> ${path.join(g.outside, "victim.txt")}`)).prompts).toBe(0);
  });
});

describe("what stays in the project is not asked", () => {
  it.each([
    ["a plain redirect", "echo hi > b.txt", "b.txt"],
    ["rm of the link itself (not its target)", "rm link-file", undefined],
    ["cp inside", "cp a.txt c.txt", "c.txt"],
    ["a link inside pointing inside", "ln -s a.txt d.txt && echo more >> d.txt", "d.txt"],
  ])("%s: %s", async (_name, command, made) => {
    const g = await linkedProject();
    const before = outsideState(g);
    const outcome = await g.run(command);
    expect(outcome.prompts).toBe(0);
    expect(outcome.text).toContain("Exit code: 0");
    if (made) expect(existsSync(path.join(g.root, made))).toBe(true);
    expect(outsideState(g)).toBe(before);
  });
});

describe("writers' file arguments meet the sensitive locations", () => {
  it("cp into ~/.ssh is a credential write: asked in auto mode, even when the safety check would allow it", async () => {
    const g = (t = commandGate("auto"));
    writeFileSync(path.join(g.root, "key.pub"), "ssh-ed25519 AAAA attacker\n");
    mkdirSync(path.join(g.home, ".ssh"));
    await g.remember("cp");
    g.classifier.answer = '{"decision": "allow", "reason": "routine"}';
    const outcome = await g.run("cp key.pub ~/.ssh/authorized_keys");
    expect(outcome.prompts).toBe(1);
    expect(outcome.summary).toMatch(/^Change a credential folder: ~\/\.ssh/);
    expect(g.classifier.requests).toHaveLength(0);
    expect(existsSync(path.join(g.home, ".ssh", "authorized_keys"))).toBe(false);
  });
});
