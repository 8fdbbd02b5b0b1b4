/**
 * Issue 27, item 4: programs that run code on their own terms. With each program remembered from a
 * harmless use, the forms that run a program they are handed, set configuration that names one,
 * or write where they are told are still asked (the prompt says why), and, declined, did nothing.
 * The harmless forms stay remembered. Each case is an attack that ran unasked before.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandGate, type CommandGate } from "./command-gate.js";

let t: CommandGate | undefined;
afterEach(() => {
  t?.dispose();
  t = undefined;
});

/** Every program the attacks use, remembered. */
const REMEMBERED = ["git", "tar", "make", "sed", "vim", "vi", "ex", "less", "more", "man", "ls", "cat", "export", "echo", "true"];

async function project(): Promise<CommandGate> {
  const g = (t = commandGate("ask"));
  execFileSync("git", ["init", "-q"], { cwd: g.root });
  writeFileSync(path.join(g.root, "notes.txt"), "x\n");
  mkdirSync(path.join(g.root, "sub"));
  writeFileSync(path.join(g.root, "Makefile"), "all:\n\t@echo built\n");
  await g.remember(...REMEMBERED);
  return g;
}

/** What an attack could have left behind: a `pwned` file, the fake home's dotfiles. */
function traces(g: CommandGate): string {
  return [path.join(g.root, "pwned"), path.join(g.home, ".gitconfig"), path.join(g.home, ".bashrc"), path.join(g.outside, "x")]
    .map((f) => (existsSync(f) ? readFileSync(f, "utf8") : "-"))
    .join("|");
}

describe("asked with the program remembered, and the prompt says why", () => {
  it.each([
    ["git -c", "git -c alias.x='!touch pwned' x", '"git -c" is never remembered: it sets configuration'],
    ["git -c core.fsmonitor", "git -c core.fsmonitor='touch pwned' status", '"git -c" is never remembered'],
    ["git --config-env", "PAGER_CMD='touch pwned' git --config-env=core.pager=PAGER_CMD log", "never remembered"],
    ["git config alias", "git config alias.y '!touch pwned'", '"git config" that changes settings is never remembered'],
    ["git config --global core.pager", "git config --global core.pager 'touch pwned'", '"git config" that changes settings is never remembered'],
    ["git log --output", "git log --output=../outside/x", '"git log --output" is never remembered: it writes where it is told'],
    ["git diff --outp (abbreviated)", "git diff --outp=../outside/x", '"git diff --outp" is never remembered: it writes where it is told'],
    ["git --exec-path", "git --exec-path=./evil status", '"git --exec-path=" is never remembered'],
    ["a git alias", "git y", '"git y" is never remembered: it is not one of git\'s own commands'],
    ["git rebase --exec", "git rebase --exec 'touch pwned' HEAD~1", '"git rebase --exec" is never remembered'],
    ["git grep -O", "git grep -O'touch pwned' x", "never remembered"],
    ["tar --to-command", "tar --to-command='touch pwned' -xf t.tar", '"tar --to-command" is never remembered: it runs the command it is given'],
    ["tar --to-com (abbreviated)", "tar --to-com='touch pwned' -xf t.tar", '"tar --to-command" is never remembered'],
    ["tar --checkpoint-action=exec", "tar --checkpoint=1 --checkpoint-action=exec='touch pwned' -cf t.tar notes.txt", '"tar --checkpoint-action" is never remembered'],
    ["tar --use-compress-program", "tar --use-compress-program='touch pwned' -cf t.tar notes.txt", '"tar --use-compress-program" is never remembered'],
    ["tar -I", "tar -I 'touch pwned' -cf t.tar notes.txt", '"tar -I" is never remembered'],
    ["tar -C outside the project", "tar -xf t.tar -C ../outside", "outside\" is never remembered: it works outside the project"],
    ["tar -C ~", "tar -xf t.tar -C ~", "home\" is never remembered: it works outside the project"],
    ["tar old style with C", "tar xfC t.tar ../outside", "outside\" is never remembered: it works outside the project"],
    ["make -C outside", "make -C ../outside all", '"make -C'],
    ["make --eval", "make --eval='p:; touch pwned' p", '"make --eval" is never remembered'],
    ["make -f -", "make -f - p <<EOF\np:\n\ttouch pwned\nEOF", '"make -f -" is never remembered'],
    ["make SHELL=", "make SHELL='/bin/sh -c \"touch pwned\"' all", '"make SHELL=" is never remembered'],
    ["make with $(shell)", "make 'X=$(shell touch pwned)' all", "never remembered: make runs the functions it holds"],
    ["sed s///e", "sed 's/x/touch pwned/e' notes.txt", "\"sed\" with the e command or the s///e flag is never remembered"],
    ["sed e", "sed '1e touch pwned' notes.txt", '"sed" with the e command'],
    ["sed w", "sed -n '1w ~/.bashrc' notes.txt", '"sed" with the w command or flag is never remembered'],
    ["sed s///w", "sed 's/x/y/w ../outside/x' notes.txt", '"sed" with the w command'],
    ["sed bracket hiding the delimiter", "sed 's/[/]/x/e' notes.txt", "never remembered"],
    ["sed -f", "sed -f script.sed notes.txt", '"sed -f" is never remembered'],
    ["vim -c", "vim -es -c '!touch pwned' -c q", '"vim" is never remembered: an editor runs'],
    ["ex", "ex -s -c '!touch pwned' -c q notes.txt", '"ex" is never remembered'],
    ["less with LESSOPEN", "LESSOPEN='|touch pwned %s' less notes.txt", "commands that set LESSOPEN are never remembered"],
    ["more", "more notes.txt", '"more" is never remembered: a pager runs shell commands'],
    ["man", "man -P 'touch pwned' ls", '"man" is never remembered'],
    ["PAGER=", "PAGER='touch pwned' git log", "commands that set PAGER are never remembered: it names a program"],
    ["GIT_*=", "GIT_SSH_COMMAND='touch pwned' git fetch origin", "commands that set GIT_SSH_COMMAND are never remembered"],
    ["LD_PRELOAD=", "LD_PRELOAD=./evil.so ls", "commands that set LD_PRELOAD are never remembered"],
    ["PATH= alone", "PATH=./evil:$PATH; git status", "commands that set PATH are never remembered"],
    ["export PAGER", "export GIT_PAGER='touch pwned'; git log", "commands that set GIT_PAGER are never remembered"],
    ["for over PATH", "for PATH in ./evil; do ls; done", "commands that set PATH are never remembered"],
  ])("%s: %s", async (_name, command, reason) => {
    const g = await project();
    const before = traces(g);
    const outcome = await g.run(command);
    expect(outcome.prompts).toBe(1);
    expect(outcome.summary).toContain(reason);
    expect(outcome.text).toContain("Command not run: The user declined");
    expect(traces(g)).toBe(before);
  });

  it("is never remembered: Yes, don't ask again leaves the next one asked", async () => {
    const g = await project();
    g.editor.answers.push({ optionId: "allow_always" });
    expect((await g.run("git -c core.pager=cat log --oneline")).prompts).toBe(1);
    expect(g.editor.statuses().join("\n")).toContain('Allowed this time only: "git -c" is never remembered');
    expect((await g.run("git -c core.pager=cat log --oneline")).prompts).toBe(1);
  });
});

describe("their ordinary forms stay remembered", () => {
  it.each([
    "git status --short",
    "git log --oneline -n 1 || true",
    "git config --get user.name || true",
    "git config --list --show-origin > /dev/null",
    "git diff --cc --stat",
    "tar -czf out.tgz notes.txt && tar -xzf out.tgz -C sub",
    "tar --checkpoint=100 -cf t.tar notes.txt",
    "make all",
    "make -C sub -f ../Makefile all",
    "make CFLAGS_EXTRA=-O2 all",
    "sed -n 's/x/y/p' notes.txt",
    "sed -i 's/x/y/g' notes.txt",
    "sed --sandbox 's/x/y/' notes.txt",
    "NODE_ENV=test CI=1 LANG=C ls",
  ])("%s", async (command) => {
    const g = await project();
    const outcome = await g.run(command);
    expect(outcome.prompts).toBe(0);
    expect(outcome.text).toContain("Exit code: 0");
  });
});
