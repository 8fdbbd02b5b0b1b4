/**
 * One core, two front ends: a session started over LSP is loaded over ACP (its history replayed
 * as session/update) and continued there, with the model seeing the whole conversation.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnAcp, userConfigHome, type AcpHarness } from "../helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { initialize, spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let fake: FakeProvider;
let lsp: SpawnedServer;
let h: AcpHarness;
afterEach(async () => {
  lsp?.child.kill("SIGKILL");
  await h?.close();
  await fake?.close();
});

describe("LSP and ACP share sessions", () => {
  it("loads a session started over LSP over ACP and continues it", async () => {
    fake = await startFakeProvider();
    const root = tempProject();
    const options = fakeProviderOptions(fake);
    lsp = spawnServer(root, { XDG_CONFIG_HOME: userConfigHome({}) });
    await initialize(lsp, root, options);
    const { result } = (await lsp.request("agent/newSession", {})) as { result: { sessionId: string } };
    fake.enqueue({ text: "The answer over LSP." });
    expect((await lsp.request("agent/prompt", { sessionId: result.sessionId, prompt: "question over LSP" })).result.stopReason).toBe("end_turn");
    await lsp.request("shutdown");
    lsp.notify("exit");
    await lsp.exited;

    h = spawnAcp(root, userConfigHome(options));
    await h.initialize();
    await h.agent.request("session/load", { sessionId: result.sessionId, cwd: root, mcpServers: [] });
    const replayed = h.updates.map(({ update: u }) =>
      (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk") && u.content.type === "text" ? `${u.sessionUpdate}:${u.content.text}` : u.sessionUpdate,
    );
    expect(replayed).toContain("user_message_chunk:question over LSP");
    expect(replayed.filter((u) => u.startsWith("agent_message_chunk")).map((u) => u.slice("agent_message_chunk:".length)).join("")).toBe("The answer over LSP.");
    fake.enqueue({ text: "The answer over ACP." });
    const answer = await h.agent.request("session/prompt", { sessionId: result.sessionId, prompt: [{ type: "text", text: "question over ACP" }] });
    expect(answer.stopReason).toBe("end_turn");
    const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(sent).toContain("question over LSP");
    expect(sent).toContain("The answer over LSP.");
    expect(sent).toContain("question over ACP");
    expect(fake.violations).toEqual([]);
  });
});
