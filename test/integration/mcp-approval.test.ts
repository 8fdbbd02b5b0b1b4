/**
 * An MCP server that a file inside the project defines starts only after the user approved that
 * exact command line once, in an editor prompt; the approval is kept signed in approvals.toml,
 * `full_access` does not skip it, and an entry agent-lsp did not sign grants nothing. Servers
 * from the user's own settings start without asking.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../server/src/config/schema.js";
import { serverSpecs } from "../../server/src/mcp/specs.js";
import { approvalsPath } from "../../server/src/policy/approvals-file.js";
import { isolateUserDirs } from "../helpers/user-dirs.js";
import { startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";
import { hostile } from "../helpers/mcp/servers.js";

// The signing key lives in the user's state folder: a folder of this test's own.
isolateUserDirs("mcp-approval-home-");

let harnesses: AgentHarness[] = [];
let root: string;
afterEach(async () => {
  for (const h of harnesses) await h.dispose();
  harnesses = [];
  rmSync(root, { recursive: true, force: true });
});

const server = hostile("silent-discover");

function projectWithServer(): string {
  root = tempProject();
  writeFileSync(path.join(root, ".mcp.json"), JSON.stringify({ mcpServers: { local: server } }));
  return root;
}

async function run(answer: string | null, options: Record<string, unknown> = {}): Promise<AgentHarness> {
  const h = await startAgentHarness({ root, options: { mcp: { discover_timeout_s: 0.3 }, mcp_defer_tools: false, ...options } });
  harnesses.push(h);
  h.client.script.showMessageRequest = () => answer;
  h.fake.enqueue({ text: "ok" });
  await h.prompt(await h.newSession(), "hi");
  return h;
}

const asked = (h: AgentHarness) => h.client.requests.filter((r) => r.method === "window/showMessageRequest" && /defines the MCP server "local"/.test(r.params.message));
const toolNames = (h: AgentHarness) => (h.fake.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);

describe("project-defined MCP servers", () => {
  it("ask once in full_access, start when approved, keep the approval signed, and do not ask again", async () => {
    projectWithServer();
    const first = await run("Start it");
    expect(asked(first)).toHaveLength(1);
    const message = asked(first)[0]!.params.message as string;
    expect(message).toContain(`\n  program: ${JSON.stringify(process.execPath)}\n`);
    server.args!.forEach((arg, i) => expect(message).toContain(`\n  argument ${i + 1}: ${JSON.stringify(arg)}\n`));
    expect(toolNames(first)).toContain("mcp__local__echo");
    const file = readFileSync(approvalsPath(root), "utf8");
    expect(file).toMatch(/\[\[mcp_server\]\]\nname = "local"\ncommand = ".+"\nsig = "[0-9a-f]{64}"/);
    await first.dispose();
    harnesses = [];
    const second = await run(null);
    expect(asked(second)).toHaveLength(0);
    expect(toolNames(second)).toContain("mcp__local__echo");
  }, 30_000);

  it("leave a declined server stopped and say why", async () => {
    projectWithServer();
    const h = await run("Don't start it");
    expect(asked(h)).toHaveLength(1);
    expect(toolNames(h)).not.toContain("mcp__local__echo");
    expect(h.client.updatesOf("status").map((u) => u.text)).toContainEqual(expect.stringContaining('MCP server "local" not approved: it is defined in'));
  }, 30_000);

  it("ignore an approval agent-lsp did not sign (the repository or the agent wrote it)", async () => {
    projectWithServer();
    const spec = serverSpecs({ ...structuredClone(DEFAULT_CONFIG), mcp_servers: { local: server } }, root).specs[0]!;
    mkdirSync(path.dirname(approvalsPath(root)), { recursive: true });
    writeFileSync(approvalsPath(root), `[[mcp_server]]\nname = "local"\ncommand = ${JSON.stringify(spec.launchLine)}\nsig = "${"0".repeat(64)}"\n`);
    const h = await run(null);
    expect(asked(h)).toHaveLength(1);
    expect(toolNames(h)).not.toContain("mcp__local__echo");
  }, 30_000);

  it("ask again when the project changes the command line", async () => {
    projectWithServer();
    await run("Start it");
    await harnesses[0]!.dispose();
    harnesses = [];
    writeFileSync(path.join(root, ".mcp.json"), JSON.stringify({ mcpServers: { local: { ...server, args: [...server.args!, "--changed"] } } }));
    const h = await run(null);
    expect(asked(h)).toHaveLength(1);
  }, 30_000);

  it("start a server from the user's own settings without asking", async () => {
    root = tempProject();
    const h = await run(null, { mcp_servers: { mine: server } });
    expect(h.client.requests.filter((r) => r.method === "window/showMessageRequest")).toHaveLength(0);
    expect(toolNames(h)).toContain("mcp__mine__echo");
  }, 30_000);
});
