/** A bad configuration is reported to the editor and the server keeps running on good values. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, tempProject, type AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.dispose();
});

describe("configuration over LSP", () => {
  it("shows a window/showMessage error for a broken project config and keeps serving", async () => {
    const root = tempProject();
    mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
    writeFileSync(path.join(root, ".agent-lsp", "config.toml"), "this is [not toml");
    h = await startAgentHarness({ root, options: { max_turns: "many" } });
    await waitFor(() => h!.client.messages.length > 0);
    const msg = h.client.messages[0]!;
    expect(msg.type).toBe(1);
    expect(msg.message).toMatch(/config\.toml:1:\d+: not valid TOML/);
    expect(msg.message).toContain("initializationOptions: key max_turns: expected number");
    h.fake.enqueue({ text: "still fine" });
    const id = await h.newSession();
    await expect(h.prompt(id, "hi")).resolves.toMatchObject({ stopReason: "end_turn" });
  });

  it("reloads the config files on workspace/didChangeConfiguration: new values apply, a broken file is reported", async () => {
    h = await startAgentHarness();
    const file = path.join(h.root, ".agent-lsp", "config.toml");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "max_tokens = 1234\n");
    await h.client.connection.sendNotification("workspace/didChangeConfiguration", { settings: {} });
    h.fake.enqueue({ text: "ok" });
    const id = await h.newSession();
    await h.prompt(id, "hi");
    expect(h.fake.requests.at(-1)!.body.max_tokens).toBe(1234);

    writeFileSync(file, "max_tokens = [broken");
    await h.client.connection.sendNotification("workspace/didChangeConfiguration", { settings: {} });
    await waitFor(() => h!.client.messages.some((m) => m.message.includes("not valid TOML")));
    // The broken file keeps its last good values.
    h.fake.enqueue({ text: "still ok" });
    await h.prompt(id, "again");
    expect(h.fake.requests.at(-1)!.body.max_tokens).toBe(1234);
  });

  it("a reload reaches the commands the agent runs: a variable added to exec.env_deny disappears", async () => {
    process.env.AGENT_LSP_TEST_SECRET = "visible-value";
    try {
      h = await startAgentHarness();
      const id = await h.newSession();
      const run = async () => {
        h!.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: 'echo "[$AGENT_LSP_TEST_SECRET]"' } }] }, { text: "ran" });
        await h!.prompt(id, "run it");
        return JSON.stringify(h!.fake.requests.at(-1)!.body.messages.at(-1));
      };
      expect(await run()).toContain("[visible-value]");
      const file = path.join(h.root, ".agent-lsp", "config.toml");
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, '[exec]\nenv_deny = ["AGENT_LSP_TEST_SECRET"]\n');
      await h.client.connection.sendNotification("workspace/didChangeConfiguration", { settings: {} });
      await new Promise((r) => setTimeout(r, 50));
      const after = await run();
      expect(after).toContain("[]");
      expect(after).not.toContain("visible-value");
    } finally {
      delete process.env.AGENT_LSP_TEST_SECRET;
    }
  });
});
