/**
 * MCP prompts as slash commands, and agent/listCommands listing every command (built-in and
 * MCP) with its arguments, so editors can complete them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { MODERN, nodeServer } from "../helpers/mcp/servers.js";

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function start(): Promise<{ h: AgentHarness; id: string }> {
  h = await startAgentHarness({ options: { mcp_servers: { notes: nodeServer(MODERN) }, mcp: { discover_timeout_s: 10 } } });
  return { h, id: await h.newSession() };
}

describe("agent/listCommands", () => {
  it("lists the built-in commands and each MCP prompt, with their arguments, starting the servers first", async () => {
    const { h, id } = await start();
    const { commands } = (await h.client.connection.sendRequest("agent/listCommands", { sessionId: id })) as { commands: any[] };
    const byName = new Map(commands.map((c) => [c.name, c]));
    expect(byName.get("help")).toEqual({ name: "help", description: "List the slash commands.", arguments: [] });
    expect(byName.get("restore")?.arguments).toEqual([{ name: "id", required: true }]);
    expect(byName.get("model")?.arguments).toEqual([{ name: "NAME/model-id", required: false }]);
    expect(byName.get("mcp__notes__review")).toEqual({
      name: "mcp__notes__review",
      description: "Review code (mcp:notes)",
      arguments: [
        { name: "code", required: true },
        { name: "focus", required: false },
      ],
    });
  }, 30_000);

  it("answers -32602 for a session that does not exist", async () => {
    const { h } = await start();
    await expect(h.client.connection.sendRequest("agent/listCommands", { sessionId: "s-nope" })).rejects.toMatchObject({ code: -32602 });
  }, 30_000);
});

describe("MCP prompts as slash commands", () => {
  it("answers a missing required argument with a usage line", async () => {
    const { h, id } = await start();
    const res = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "/mcp__notes__review", args: [] })) as { message: string };
    expect(res.message).toBe("Usage: /mcp__notes__review <code> [focus]\nMissing: code.");
    expect(h.fake.requests).toHaveLength(0);
  }, 30_000);

  it("sends the fetched prompt text as the user's message (quotes group words, the last argument takes the rest)", async () => {
    const { h, id } = await start();
    h.fake.enqueue({ text: "Looks fine." });
    const res = (await h.client.connection.sendRequest("agent/command", { sessionId: id, command: "/mcp__notes__review", args: ['"x', "=", '1"', "naming", "and", "style"] })) as { message: string };
    expect(res.message).toBe("");
    const text = "Please review this code for naming and style:\nx = 1";
    expect(h.client.updatesOf("user_message").map((u) => u.text)).toEqual([text]);
    expect(JSON.stringify(h.fake.requests[0]!.body.messages.at(-1).content)).toContain(JSON.stringify(text).slice(1, -1));
    expect(h.client.answerText()).toBe("Looks fine.");
  }, 30_000);

  it("still refuses a command nobody provides", async () => {
    const { h, id } = await start();
    await expect(h.client.connection.sendRequest("agent/command", { sessionId: id, command: "/mcp__notes__nope" })).rejects.toMatchObject({ code: -32602 });
  }, 30_000);
});
