/**
 * The project's instruction files (rules, workflows, skills) reach the model without the user
 * being asked: rules go into every system prompt, a workflow's steps are load_workflow's result,
 * a project skill's description is in the skill catalog. A cloned repository can ship any of them
 * as a link to the user's files (`AGENTS.md -> ~/.aws/credentials`), or link the folder holding
 * them out of the project. Such a file is left out with a note naming the link; a link that stays
 * inside the project (`AGENTS.md -> CLAUDE.md`) is followed as before. And `agent-lsp mcp
 * add/remove/add-json --project` rewrites the project's own config files, never what a link there
 * leads to (the user's config with its keys, a folder of the home).
 */
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { hostileProject, type HostileProject } from "../helpers/hostile-project.js";
import { isolateUserDirs } from "../helpers/user-dirs.js";

const dirs = isolateUserDirs("agent-lsp-project-links-");

let h: AgentHarness | undefined;
const cleanup: string[] = [];
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function hostile(): HostileProject {
  const p = hostileProject();
  cleanup.push(p.base);
  return p;
}

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

/** Everything the model was sent, as one text. */
function sentToModel(harness: AgentHarness): string {
  return harness.fake.requests.map((r) => JSON.stringify(r.body)).join("\n");
}

describe("rule files", () => {
  it("a rule file linked out of the project is left out with a note; one linked inside is followed", async () => {
    const p = hostile();
    link(path.join(p.home, ".aws", "credentials"), path.join(p.root, "AGENTS.md"));
    link(path.join(p.home, ".ssh", "id_rsa"), path.join(p.state, "rules", "keys.md"));
    writeFileSync(path.join(p.root, "STYLE.md"), "Use tabs.\n");
    link("../../STYLE.md", path.join(p.state, "rules", "style.md"));
    writeFileSync(path.join(p.home, ".aws", "credentials"), "[default]\naws_secret_access_key = SECRETSECRET\n");
    h = await startAgentHarness({ root: p.root });
    const id = await h.newSession();
    h.fake.enqueue({ text: "ok" });
    await h.prompt(id, "hi");
    const sent = sentToModel(h);
    expect(sent).not.toContain("PRIVATE KEY");
    expect(sent).not.toContain("SECRETSECRET");
    expect(sent).toContain(`${path.join(p.root, "AGENTS.md")} leads outside the project`);
    expect(sent).toContain(`${path.join(p.state, "rules", "keys.md")} leads outside the project`);
    expect(sent).toContain("Use tabs.");
  });

  it("a rules folder linked out of the project lists none of its files", async () => {
    const p = hostile();
    mkdirSync(path.join(p.home, "notes"));
    writeFileSync(path.join(p.home, "notes", "diary.md"), "DEAR DIARY\n");
    symlinkSync(path.join(p.home, "notes"), path.join(p.state, "rules"));
    h = await startAgentHarness({ root: p.root });
    const id = await h.newSession();
    h.fake.enqueue({ text: "ok" });
    await h.prompt(id, "hi");
    const sent = sentToModel(h);
    expect(sent).not.toContain("DEAR DIARY");
    expect(sent).not.toContain("diary.md");
    expect(sent).toContain(`${path.join(p.state, "rules")} leads outside the project`);
  });
});

describe("workflows", () => {
  it("a workflow linked out of the project is neither summarized nor loaded", async () => {
    const p = hostile();
    link(path.join(p.home, ".ssh", "id_rsa"), path.join(p.state, "workflows", "deploy.md"));
    h = await startAgentHarness({ root: p.root });
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "load_workflow", input: {} }, { name: "load_workflow", input: { name: "deploy" } }] }, { text: "ok" });
    await h.prompt(id, "deploy");
    const sent = sentToModel(h);
    expect(sent).not.toContain("PRIVATE KEY");
    expect(sent).toContain(`${path.join(p.state, "workflows", "deploy.md")} leads outside the project`);
  });

  it("a workflows folder linked out of the project lists nothing", async () => {
    const p = hostile();
    mkdirSync(path.join(p.home, "notes"));
    writeFileSync(path.join(p.home, "notes", "plans.md"), "SECRET PLANS\n");
    symlinkSync(path.join(p.home, "notes"), path.join(p.state, "workflows"));
    h = await startAgentHarness({ root: p.root });
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "load_workflow", input: {} }, { name: "load_workflow", input: { name: "plans" } }] }, { text: "ok" });
    await h.prompt(id, "plan");
    const sent = sentToModel(h);
    expect(sent).not.toContain("SECRET PLANS");
    expect(sent).toContain('No workflow \\"plans\\"');
  });
});

describe("skills", () => {
  it("a project SKILL.md linked out of the project is not in the catalog, and the note names it", async () => {
    const p = hostile();
    writeFileSync(path.join(p.home, "other.md"), "---\nname: other\ndescription: OUTSIDE DESCRIPTION\n---\nOUTSIDE BODY\n");
    link(path.join(p.home, "other.md"), path.join(p.state, "skills", "other", "SKILL.md"));
    h = await startAgentHarness({ root: p.root });
    const id = await h.newSession();
    h.fake.enqueue({ toolCalls: [{ name: "skill_view", input: { name: "other" } }] }, { text: "ok" });
    await h.prompt(id, "use the other skill");
    const sent = sentToModel(h);
    expect(sent).not.toContain("OUTSIDE DESCRIPTION");
    expect(sent).not.toContain("OUTSIDE BODY");
    expect(sent).toContain(`${path.join(p.state, "skills", "other", "SKILL.md")} leads outside the project`);
  });
});

describe("mcp add/remove/add-json --project", () => {
  /** Runs `agent-lsp mcp ...` in the project, as from a terminal there. */
  async function mcp(root: string, ...argv: string[]): Promise<number> {
    const { mcpCommand } = await import("../../server/src/cli/mcp.js");
    const cwd = process.cwd();
    process.chdir(root);
    try {
      return await mcpCommand(argv);
    } finally {
      process.chdir(cwd);
    }
  }

  it("a linked .agent-lsp is refused: nothing is written where it leads", async () => {
    const p = hostile();
    mkdirSync(path.join(p.home, ".cargo"));
    writeFileSync(path.join(p.home, ".cargo", "config.toml"), "[build]\njobs = 4\n");
    rmSync(p.state, { recursive: true });
    symlinkSync(path.join(p.home, ".cargo"), p.state);
    const before = p.snapshot();
    await expect(mcp(p.root, "add", "--project", "evil", "--", "evil-server")).rejects.toThrow(`${p.state} is a symbolic link`);
    expect(p.snapshot()).toBe(before);
  });

  it("a project config linked to the user's own is refused: the user's keys are not copied into the project", async () => {
    const p = hostile();
    const user = path.join(dirs.home, "config", "agent-lsp");
    mkdirSync(user, { recursive: true });
    writeFileSync(path.join(user, "config.toml"), '[providers.anthropic]\napi_key = "sk-ant-SECRET"\n');
    writeFileSync(path.join(user, "mcp.json"), JSON.stringify({ mcpServers: { gh: { url: "https://x.test", headers: { Authorization: "Bearer SECRET-TOKEN" } } } }));
    symlinkSync(path.join(user, "config.toml"), path.join(p.state, "config.toml"));
    symlinkSync(path.join(user, "mcp.json"), path.join(p.root, ".mcp.json"));
    await expect(mcp(p.root, "add", "--project", "db", "--", "db-server")).rejects.toThrow(`${path.join(p.state, "config.toml")} is a symbolic link`);
    await expect(mcp(p.root, "add-json", "--project", "db", '{"command": "db-server"}')).rejects.toThrow(`${path.join(p.root, ".mcp.json")} is a symbolic link`);
    expect(lstatSync(path.join(p.state, "config.toml")).isSymbolicLink()).toBe(true);
    expect(lstatSync(path.join(p.root, ".mcp.json")).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(user, "config.toml"), "utf8")).toBe('[providers.anthropic]\napi_key = "sk-ant-SECRET"\n');
  });

  it("a link planted where the temp file goes is not written through", async () => {
    const p = hostile();
    symlinkSync(path.join(p.home, ".bashrc"), path.join(p.state, `config.toml.${process.pid}.tmp`));
    symlinkSync(path.join(p.home, ".bashrc"), path.join(p.root, `.mcp.json.${process.pid}.tmp`));
    const before = p.snapshot();
    expect(await mcp(p.root, "add", "--project", "db", "--", "db-server")).toBe(0);
    expect(await mcp(p.root, "add-json", "--project", "web", '{"command": "web-server"}')).toBe(0);
    expect(readFileSync(path.join(p.state, "config.toml"), "utf8")).toContain("[mcp_servers.db]");
    expect(readFileSync(path.join(p.root, ".mcp.json"), "utf8")).toContain("web-server");
    expect(p.snapshot()).toBe(before);
  });
});
