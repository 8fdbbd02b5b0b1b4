/**
 * What the server adapts to the client it serves: agent/update goes only to clients of the agent
 * protocol (declared, or shown by calling its methods), and a client whose message line is one
 * row (Helix, by clientInfo) gets messages whose paragraphs stay apart on that row.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const SOURCE = "function add(a, b) {\n  return a - b;\n}\n";

/** Starts a client with math.js open and runs "explain" on line 2 through executeCommand, to its end; the summary message (none for an agent-protocol client). */
async function explain(options: { capabilities?: ClientCapabilities; clientInfo?: { name: string; version?: string } }): Promise<string | undefined> {
  h = await startAgentHarness(options);
  writeFileSync(path.join(h.root, "math.js"), SOURCE);
  const uri = pathToFileURL(path.join(h.root, "math.js")).href;
  h.client.open(uri, SOURCE, "javascript");
  h.fake.enqueue({ text: "It returns a minus b.\nSo add() subtracts." });
  const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } };
  await h.client.connection.sendRequest("workspace/executeCommand", { command: "agent.explain", arguments: [{ uri, range, wait: true }] });
  const summary = () => h.client.messages.find((m) => m.message.startsWith("Agent: explain math.js:2: done"))?.message;
  if (!options.capabilities?.experimental) await waitFor(() => summary() !== undefined, 10_000);
  return summary();
}

describe("agent/update", () => {
  it("is not sent to a client that neither declares nor uses the agent protocol", async () => {
    await explain({});
    expect(h.client.updates).toEqual([]);
  });

  it("is sent to a client that declares experimental.agent", async () => {
    await explain({ capabilities: defaultCapabilities({ experimental: { agent: {} } }) });
    expect(h.client.updatesOf("text").map((u) => u.text).join("")).toBe("It returns a minus b.\nSo add() subtracts.");
  });

  it("is sent to a client that calls the protocol's methods without declaring it", async () => {
    h = await startAgentHarness();
    h.fake.enqueue({ text: "pong" });
    await h.prompt(await h.newSession(), "ping");
    expect(h.client.updatesOf("text").map((u) => u.text).join("")).toBe("pong");
  });
});

describe("window/showMessage", () => {
  it("keeps its paragraphs and lines for a client that shows them", async () => {
    expect(await explain({ clientInfo: { name: "Neovim" } })).toMatch(/^Agent: explain math\.js:2: done, \$\d+\.\d+\n\nIt returns a minus b\.\nSo add\(\) subtracts\.$/);
  });

  it("is laid out on one row for Helix: paragraphs apart, lines joined", async () => {
    expect(await explain({ clientInfo: { name: "helix", version: "25.07.1" } })).toMatch(/^Agent: explain math\.js:2: done, \$\d+\.\d+ — It returns a minus b\. So add\(\) subtracts\.$/);
  });
});
