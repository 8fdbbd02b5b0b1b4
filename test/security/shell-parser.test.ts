/**
 * Issue 27, item 3: command lines are read by the bash grammar (tree-sitter-bash), so a command
 * hidden where the old hand-written lexer did not look (inside `${X:-...}`, a here-document,
 * arithmetic) is seen: with every visible program remembered, such a line is still asked, and,
 * declined, nothing ran. The floors see those commands too, in every mode.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HIDDEN_COMMAND, UNREADABLE } from "../../server/src/policy/shell/syntax.js";
import { commandGate, type CommandGate } from "./command-gate.js";

let t: CommandGate | undefined;
afterEach(() => {
  t?.dispose();
  t = undefined;
});

/** A gate in `mode` with the programs these lines show remembered. */
async function remembering(mode: "ask" | "full_access" = "ask"): Promise<CommandGate> {
  t = commandGate(mode);
  await t.remember("ls", "echo", "cat", "touch", "true");
  return t;
}

describe("a command hidden in a word is seen: asked with every program remembered", () => {
  it.each([
    ["ls ${X:-$(touch pwned)}"],
    ["ls ${X:-`touch pwned`}"],
    ["ls ${X:=$(touch pwned)}"],
    ["ls ${X:=`touch pwned`}"],
    ["ls ${X:-$(echo touch pwned | sh)}"],
    ['echo "${X:-$(touch pwned)}"'],
    ["ls ${X/$(touch pwned)/y}"],
    ["cat <<EOF\n$(touch pwned)\nEOF"],
    ["cat <<EOF\n`touch pwned`\nEOF"],
    ["echo $(( $(touch pwned) + 1 ))"],
    ["echo $(( a[$(touch pwned)] ))"],
  ])("%j", async (command) => {
    const g = await remembering();
    const outcome = await g.run(command);
    expect(outcome.prompts).toBe(1);
    expect(outcome.summary).toContain(HIDDEN_COMMAND);
    expect(outcome.text).toContain("Command not run: The user declined");
    expect(existsSync(path.join(g.root, "pwned"))).toBe(false);
  });

  it("arithmetic that evaluates a variable holding $(...) is asked", async () => {
    const g = await remembering();
    const outcome = await g.run("X='a[$(touch pwned)]'; echo $((X))");
    expect(outcome.prompts).toBe(1);
    expect(existsSync(path.join(g.root, "pwned"))).toBe(false);
  });

  it("a line the parser cannot read fully is asked, and never remembered", async () => {
    const g = await remembering();
    g.editor.answers.push({ optionId: "allow_always" });
    const first = await g.run("cat 3<>notes.txt");
    expect(first.prompts).toBe(1);
    expect(first.summary).toContain(UNREADABLE);
    expect((await g.run("cat 3<>notes.txt")).prompts).toBe(1);
  });

  it("quoted text that only looks like a substitution is not a command", async () => {
    const g = await remembering();
    const outcome = await g.run("echo '${X:-$(touch pwned)}' \"\\`x\\`\" && cat <<'EOF'\n$(touch pwned)\nEOF");
    expect(outcome.prompts).toBe(0);
    expect(outcome.text).toContain("${X:-$(touch pwned)}");
    expect(existsSync(path.join(g.root, "pwned"))).toBe(false);
  });
});

describe("the floors see hidden commands in full access", () => {
  it.each([
    ["ls ${X:-$(rm -rf ~)}"],
    ["echo \"${X:=`rm -rf ~`}\""],
    ["bash <<EOF\nrm -rf ~\nEOF"],
    ["cat <<EOF\n$(rm -rf ~)\nEOF"],
    ["true && (cd / && rm -rf *)"],
  ])("%j", async (command) => {
    const g = await remembering("full_access");
    const outcome = await g.run(command);
    expect(outcome.text).toContain('safety floor ("rm_root")');
    expect(existsSync(g.home)).toBe(true);
  });
});
