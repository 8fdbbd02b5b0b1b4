/**
 * Project knowledge through the whole server in-process: rule files in the system prompt (an
 * edited AGENTS.md counts at the next turn, /rules lists them), skill_run as a sub-turn offered
 * only the skill's allowed_tools (another tool refused), project skills approved once, and
 * workflows and skills as slash commands in agent/listCommands.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isolateUserDirs } from "../helpers/user-dirs.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

// User skills, the user's AGENTS.md and the approval signing key: folders of this test's own.
const dirs = isolateUserDirs("knowledge-home-");

let h: AgentHarness;
beforeEach(async () => {
  rmSync(path.join(dirs.home, "config"), { recursive: true, force: true });
  h = await startAgentHarness();
});
afterEach(async () => {
  await h.dispose();
});

const put = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const systemText = (n: number) => JSON.stringify(h.fake.requests[n]!.body.system);
const toolNames = (n: number) => ((h.fake.requests[n]!.body.tools ?? []) as { name: string }[]).map((t) => t.name);
const command = (sessionId: string, name: string, args: string[] = []) =>
  h.client.connection.sendRequest("agent/command", { sessionId, command: name, args }) as Promise<{ message: string }>;
/** The text of the tool results the model got in request `n`. */
function toolResultsIn(n: number): string[] {
  return (h.fake.requests[n]!.body.messages as any[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text).join("")));
}
const userSkill = (name: string, front: string, body: string) => put(path.join(dirs.home, "config", "agent-lsp", "skills", name, "SKILL.md"), `---\nname: ${name}\n${front}\n---\n${body}\n`);
const projectSkill = (name: string, front: string, body: string) => put(path.join(h.root, ".agent-lsp", "skills", name, "SKILL.md"), `---\nname: ${name}\n${front}\n---\n${body}\n`);

describe("rule files", () => {
  it("go into the system prompt with their paths, are re-read at the next turn, and /rules lists them", async () => {
    put(path.join(h.root, "AGENTS.md"), "Always answer in haiku.");
    put(path.join(dirs.home, "config", "agent-lsp", "AGENTS.md"), "User says: be brief.");
    put(path.join(h.root, "pkg", "AGENTS.md"), "Package rule: no semicolons.");
    const id = await h.newSession();
    h.fake.enqueue({ text: "one" }, { text: "two" });
    await h.prompt(id, "hi", { context: { uri: `file://${path.join(h.root, "pkg", "a.ts")}` } });
    expect(systemText(0)).toContain(`<rules file=\\"${path.join(h.root, "AGENTS.md")}\\">\\nAlways answer in haiku.`);
    expect(systemText(0)).toMatch(/User says: be brief\..*Always answer in haiku\..*Package rule: no semicolons\./);
    put(path.join(h.root, "AGENTS.md"), "Always answer in limericks.");
    await h.prompt(id, "again");
    expect(systemText(1)).toContain("Always answer in limericks.");
    expect(systemText(1)).not.toContain("haiku");
    const listed = (await command(id, "rules")).message;
    expect(listed).toContain(`${path.join(h.root, "AGENTS.md")} (project): 7 tokens`);
    expect(listed).toContain(`${path.join(h.root, "pkg", "AGENTS.md")} (folder):`);
    const context = (await command(id, "context")).message;
    expect(context).toMatch(/- Rule files \(3\): about \d+ tokens \(part of the system prompt\)/);
    expect(context).toContain(`${path.join(h.root, "AGENTS.md")} (project): 7 tokens`);
  });
});

describe("skills", () => {
  it("run as a sub-turn offered only their allowed_tools; a disallowed call is refused and nothing is written", async () => {
    userSkill("summarize", "description: Summarize a file\nallowed_tools: [read_file]", "Read the file and summarize it in one line.");
    writeFileSync(path.join(h.root, "notes.txt"), "alpha beta\n");
    const id = await h.newSession();
    h.fake.enqueue(
      { toolCalls: [{ name: "skill_run", input: { name: "summarize", task: "notes.txt" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "evil.txt", content: "x" } }] },
      { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
      { text: "notes.txt lists alpha and beta." },
      { text: "Done." },
    );
    const end = await h.prompt(id, "summarize notes.txt with the skill");
    expect(end.stopReason).toBe("end_turn");
    expect(systemText(0)).toContain("- summarize: Summarize a file");
    expect(toolNames(0)).toContain("skill_run");
    expect(toolNames(1)).toEqual(["read_file"]);
    expect(JSON.stringify(h.fake.requests[1]!.body.messages)).toContain("Read the file and summarize it in one line.");
    expect(toolResultsIn(2)[0]).toContain('There is no tool "write_file" in this session. Available: read_file.');
    expect(existsSync(path.join(h.root, "evil.txt"))).toBe(false);
    expect(toolResultsIn(3)[1]).toContain("alpha beta");
    expect(toolResultsIn(4)[0]).toBe("Skill summarize finished:\nnotes.txt lists alpha and beta.");
    // The sub-turn's messages stay out of the session's own conversation.
    expect(JSON.stringify(h.fake.requests[4]!.body.messages)).not.toContain("Read the file and summarize");
  });

  it("from the project run only once the user approved them, and are not asked again", async () => {
    projectSkill("lint", "description: Lint the code\nrun: main", "Run the linter and fix what it finds.");
    h.client.script.showMessageRequest = () => "Don't use it";
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "skill_view", input: { name: "lint" } }] }, { text: "ok" });
    await h.prompt(id, "view it");
    expect(toolResultsIn(1)[0]).toContain('The project skill "lint" was not approved (the user chose not to use it)');
    expect(toolResultsIn(1)[0]).not.toContain("Run the linter");
    h.client.script.showMessageRequest = () => "Use it";
    h.fake.enqueue({ toolCalls: [{ name: "skill_run", input: { name: "lint" } }] }, { text: "ok" });
    await h.prompt(id, "run it");
    expect(toolResultsIn(3).at(-1)).toContain('Follow the instructions of the skill "lint" now.');
    expect(toolResultsIn(3).at(-1)).toContain("Run the linter and fix what it finds.");
    const asked = () => h.client.requests.filter((r) => r.method === "window/showMessageRequest" && /defines the skill "lint"/.test(r.params.message));
    expect(asked()).toHaveLength(2);
    h.fake.enqueue({ toolCalls: [{ name: "skill_view", input: { name: "lint" } }] }, { text: "ok" });
    await h.prompt(id, "view it again");
    expect(asked()).toHaveLength(2);
    expect(toolResultsIn(5).at(-1)).toContain("Run the linter");
  });

  it("load_skill, the older name of skill_view, shows a skill's instructions", async () => {
    userSkill("deploy", "description: Deploy the site", "Build, then upload dist/.");
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "load_skill", input: { name: "deploy" } }] }, { text: "ok" });
    await h.prompt(id, "how do we deploy?");
    expect(toolResultsIn(1)[0]).toContain("Build, then upload dist/.");
  });

  it("an unknown skill names the ones there are and the SKILL.md files that could not load", async () => {
    userSkill("good", "description: fine", "x");
    put(path.join(h.root, ".agents", "skills", "bad", "SKILL.md"), "just text");
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "skill_view", input: { name: "nope" } }] }, { text: "ok" });
    const end = await h.prompt(id, "go");
    expect(end.stopReason).toBe("end_turn");
    expect(toolResultsIn(1)[0]).toContain('No skill named "nope". Skills: good.');
    expect(toolResultsIn(1)[0]).toContain(`${path.join(h.root, ".agents", "skills", "bad", "SKILL.md")}: it has no front matter`);
    // The user hears of the broken file once, at the turn that first found it.
    h.fake.enqueue({ text: "again" });
    await h.prompt(id, "again");
    const said = h.client.updatesOf("status").filter((u) => u.text.includes("bad/SKILL.md: it has no front matter"));
    expect(said).toHaveLength(1);
  });
});

describe("slash commands", () => {
  it("list each workflow and skill; /<workflow> sends its steps as the user's message", async () => {
    put(path.join(h.root, ".agent-lsp", "workflows", "ship.md"), "# Ship a release\n1. Run the tests.\n2. Tag it.\n");
    userSkill("summarize", "description: Summarize a file", "Summarize.");
    const id = await h.newSession();
    const { commands } = (await h.client.connection.sendRequest("agent/listCommands", { sessionId: id })) as { commands: { name: string; description: string }[] };
    expect(commands).toContainEqual({ name: "ship", description: "Ship a release (workflow)", arguments: [{ name: "notes", required: false }] });
    expect(commands.map((c) => c.name)).toContain("skill:summarize");
    h.fake.enqueue({ text: "Shipping." });
    await command(id, "ship", ["carefully"]);
    const sent = JSON.stringify(h.fake.requests[0]!.body.messages);
    expect(sent).toContain("Follow the workflow \\\"ship\\\"");
    expect(sent).toContain("1. Run the tests.\\n2. Tag it.");
    expect(sent).toContain("Notes: carefully");
  });

  it("/skill:<name> asks the model to run a sub-turn skill, and sends a run: main skill's instructions once approved", async () => {
    userSkill("summarize", "description: Summarize a file", "Summarize.");
    projectSkill("lint", "description: Lint the code\nrun: main", "Run the linter and fix what it finds.");
    h.client.script.showMessageRequest = () => "Use it";
    const id = await h.newSession();
    h.fake.enqueue({ text: "ok" }, { text: "linted" });
    await command(id, "skill:summarize", ["notes.txt"]);
    expect(JSON.stringify(h.fake.requests[0]!.body.messages)).toContain('Run the skill \\"summarize\\" with skill_run for this task: notes.txt');
    await command(id, "skill:lint");
    const sent = JSON.stringify(h.fake.requests[1]!.body.messages.at(-1));
    expect(sent).toContain('Follow the instructions of the skill \\"lint\\"');
    expect(sent).toContain("Run the linter and fix what it finds.");
    h.client.script.showMessageRequest = () => "Don't use it";
    projectSkill("lint", "description: Lint the code\nrun: main", "Changed instructions.");
    await expect(command(id, "skill:lint")).rejects.toMatchObject({ message: expect.stringContaining('The project skill "lint" was not approved') });
    expect(h.fake.requests).toHaveLength(2);
  });

  it("load_workflow gives the model the steps, or an error naming the workflows there are", async () => {
    put(path.join(h.root, ".agent-lsp", "workflows", "ship.md"), "1. Test.\n");
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "load_workflow", input: { name: "ship" } }, { name: "load_workflow", input: { name: "nope" } }] }, { text: "ok" });
    await h.prompt(id, "go");
    const [ok, bad] = toolResultsIn(1);
    expect(ok).toContain("1. Test.");
    expect(bad).toContain('No workflow "nope"');
    expect(bad).toContain("there are: ship");
  });
});
