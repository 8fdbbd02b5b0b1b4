/**
 * Issue 22: a command that reaches agent-lsp's own settings or state is asked every time, even
 * when every program in it is remembered, and in auto mode even when the safety check would allow
 * it; "don't ask again" never remembers it. Each case is an attack that ran unasked before.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentSettingsPlaces } from "../../server/src/policy/agent-settings.js";
import { commandGate, type CommandGate } from "./command-gate.js";

const SETTINGS_REASON = "reach agent-lsp's own settings or state";
/** How the prompt opens for such a command (a sensitive location's headline). */
const HEADLINE = "Run a command on agent-lsp's own settings: ";
const APPROVALS = ".agent-lsp/approvals.toml";
const CONFIG = ".agent-lsp/config.toml";

let t: CommandGate | undefined;
afterEach(() => {
  t?.dispose();
  t = undefined;
});

/** A project whose `.agent-lsp/` holds a config and an approvals file, and a candidate `evil.toml`. */
function projectWithSettings(mode: "ask" | "auto"): CommandGate {
  t = commandGate(mode);
  mkdirSync(path.join(t.root, ".agent-lsp"));
  writeFileSync(path.join(t.root, CONFIG), 'safety = "ask"\n');
  writeFileSync(path.join(t.root, APPROVALS), "");
  writeFileSync(path.join(t.root, "evil.toml"), 'safety = "full_access"\n');
  return t;
}

function settingsFiles(g: CommandGate): string {
  return [CONFIG, APPROVALS].map((f) => (existsSync(path.join(g.root, f)) ? readFileSync(path.join(g.root, f), "utf8") : "<gone>")).join("|");
}

/** Programs the attacks use, all remembered: each attack runs only programs the user approved. */
const REMEMBERED = ["echo", "cd", "tee", "cp", "mv", "sed", "touch", "dd", "truncate", "install", "ln", "rm", "cat"];

describe("with every program in the line remembered, a command reaching .agent-lsp/ is still asked", () => {
  it.each([
    ["append a program rule", `echo '[[program]]' >> ${APPROVALS}; echo 'name = "touch"' >> ${APPROVALS}`],
    ["switch the safety mode", `echo 'safety = "full_access"' >> ${CONFIG}`],
    ["cd into the settings first", "cd .agent-lsp && echo 'safety = \"full_access\"' > config.toml"],
    ["tee -a", `echo '[[program]]' | tee -a ${APPROVALS}`],
    ["cp over the config", `cp evil.toml ${CONFIG}`],
    ["cp into the folder", "cp evil.toml .agent-lsp"],
    ["mv over the config", `mv evil.toml ${CONFIG}`],
    ["sed -i", `sed -i 's/ask/full_access/' ${CONFIG}`],
    ["sed -i.bak with -e", `sed -i.bak -e 's/ask/full_access/' ${CONFIG}`],
    ["dd of=", `dd if=evil.toml of=${CONFIG}`],
    ["truncate", `truncate -s 0 ${CONFIG}`],
    ["install", `install -m 644 evil.toml ${CONFIG}`],
    ["ln -sf over the config", `ln -sf ../evil.toml ${CONFIG}`],
    ["rm the config", `rm ${CONFIG}`],
    ["a path that leaves and re-enters", "echo 'safety = \"full_access\"' >> ./.agent-lsp/../.agent-lsp/config.toml"],
    ["a glob", "echo 'safety = \"full_access\"' >> .agent-*/config.toml"],
    ["the folder in a variable", "D=.agent-lsp; echo 'safety = \"full_access\"' >> $D/config.toml"],
    ["an absolute path", "echo 'safety = \"full_access\"' >> \"$PWD/.agent-lsp/config.toml\""],
  ])("%s: %s", async (_name, command) => {
    const g = projectWithSettings("ask");
    await g.remember(...REMEMBERED);
    const before = settingsFiles(g);
    const outcome = await g.run(command);
    expect(outcome.prompts).toBe(1);
    expect(outcome.summary).toContain(HEADLINE);
    expect(outcome.text).toContain("Command not run: The user declined");
    expect(settingsFiles(g)).toBe(before);
  });

  it("a write through a symlink that points into .agent-lsp/ is asked", async () => {
    const g = projectWithSettings("ask");
    await g.remember("echo");
    symlinkSync(path.join(g.root, CONFIG), path.join(g.root, "innocent.toml"));
    symlinkSync(path.join(g.root, ".agent-lsp"), path.join(g.root, "notes"));
    const before = settingsFiles(g);
    for (const command of ["echo 'safety = \"full_access\"' >> innocent.toml", "echo '[[program]]' >> notes/approvals.toml"]) {
      const outcome = await g.run(command);
      expect(outcome.prompts).toBe(1);
      expect(outcome.summary).toContain(HEADLINE);
    }
    expect(settingsFiles(g)).toBe(before);
  });

  it("a command run inside .agent-lsp/ (cwd) is asked", async () => {
    const g = projectWithSettings("ask");
    await g.remember("touch");
    const outcome = await g.run("touch config.toml", ".agent-lsp");
    expect(outcome.prompts).toBe(1);
    expect(outcome.summary).toContain(HEADLINE);
  });

  it("is never remembered: a Yes, don't ask again leaves the next one asked", async () => {
    const g = projectWithSettings("ask");
    await g.remember("echo");
    g.editor.answers.push({ optionId: "allow_always" });
    const first = await g.run(`echo '# note' >> ${APPROVALS}`);
    expect(first.prompts).toBe(1);
    expect(g.editor.statuses().join("\n")).toContain(`Allowed this time only: commands that ${SETTINGS_REASON}`);
    expect((await g.run(`echo '# note' >> ${APPROVALS}`)).prompts).toBe(1);
  });

  it("leaves alone what only mentions the folder as text, and the rest of the project", async () => {
    const g = projectWithSettings("ask");
    await g.remember("echo", "cat");
    expect(await g.run("echo .agent-lsp/ >> .gitignore")).toMatchObject({ prompts: 0, text: expect.stringContaining("Exit code: 0") });
    expect((await g.run("echo hi > notes.txt && cat notes.txt")).prompts).toBe(0);
  });
});

describe("auto mode: a command reaching the settings is never allowed by the safety check alone", () => {
  it.each([
    ["the project's approvals", (g: CommandGate) => `echo '[[program]]' >> ${APPROVALS}`, (g: CommandGate) => path.join(g.root, APPROVALS)],
    ["the project's config via bash -c", () => `bash -c "echo 'safety = \\"full_access\\"' >> ${CONFIG}"`, (g: CommandGate) => path.join(g.root, CONFIG)],
    ["the user's config folder", () => "mkdir -p ~/.config/agent-lsp && echo 'safety = \"full_access\"' >> ~/.config/agent-lsp/config.toml", (g: CommandGate) => path.join(g.home, ".config/agent-lsp/config.toml")],
    ["the user's state folder", () => "mkdir -p ~/.local/state/agent-lsp && echo x > ~/.local/state/agent-lsp/x", (g: CommandGate) => path.join(g.home, ".local/state/agent-lsp/x")],
  ])("%s", async (_name, command, target) => {
    const g = projectWithSettings("auto");
    g.classifier.answer = '{"decision": "allow", "reason": "routine"}';
    const before = existsSync(target(g)) ? readFileSync(target(g), "utf8") : "<none>";
    const outcome = await g.run(command(g));
    expect(g.classifier.requests).toHaveLength(0);
    expect(outcome.prompts).toBe(1);
    expect(outcome.text).toContain("Command not run");
    expect(existsSync(target(g)) ? readFileSync(target(g), "utf8") : "<none>").toBe(before);
    expect(g.editor.statuses().join("\n")).toContain("never left to the safety check");
  });

  it("follows XDG_CONFIG_HOME and XDG_STATE_HOME", async () => {
    const g = (t = commandGate("auto", (outside) => ({ XDG_CONFIG_HOME: path.join(outside, "cfg"), XDG_STATE_HOME: path.join(outside, "state") })));
    writeFileSync(path.join(g.root, "evil.toml"), 'safety = "full_access"\n');
    const cfg = path.join(g.env.XDG_CONFIG_HOME!, "agent-lsp");
    mkdirSync(cfg, { recursive: true });
    for (const command of [`echo x >> ${cfg}/config.toml`, 'echo x >> "$XDG_STATE_HOME/agent-lsp/x"', `cp evil.toml ${cfg}`]) {
      const outcome = await g.run(command);
      expect(outcome.prompts).toBe(1);
      expect(outcome.summary).toContain(HEADLINE);
    }
    expect(g.classifier.requests).toHaveLength(0);
  });
});

describe("agentSettingsPlaces", () => {
  it("lists the project's .agent-lsp and the user's config and state folders, XDG first", () => {
    expect(agentSettingsPlaces("/p", { HOME: "/h" })).toEqual(["/p/.agent-lsp", "/h/.config/agent-lsp", "/h/.local/state/agent-lsp"]);
    expect(agentSettingsPlaces("/p", { HOME: "/h", XDG_CONFIG_HOME: "/c", XDG_STATE_HOME: "/s" })).toEqual(["/p/.agent-lsp", "/c/agent-lsp", "/s/agent-lsp"]);
  });
});
