/**
 * The agent (config, tools, providers) loads on first use: an editor that starts the server and
 * only syncs documents pays for the LSP library alone; the first agent request loads it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { startLspPair, type LspPair } from "../helpers/lsp-pair.js";
import { waitFor } from "../helpers/wait.js";

let pair: LspPair | undefined;
afterEach(async () => {
  await pair?.close();
});

describe("loading the agent", () => {
  it("waits for the first request that needs it, which then gets its answer", async () => {
    const root = tempProject();
    pair = await startLspPair({ root, load: false });
    pair.client.open(new URL(`file://${root}/a.txt`).href, "hello");
    await new Promise((r) => setTimeout(r, 100));
    expect(pair.server.runtime()).toBeUndefined();
    const res = await pair.client.connection.sendRequest("agent/listSessions", {});
    expect(res).toEqual({ sessions: [] });
    expect(pair.server.runtime()).toBeDefined();
  });

  it("reports a bad config when it loads", async () => {
    const root = tempProject();
    mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
    writeFileSync(path.join(root, ".agent-lsp", "config.toml"), "safety = 7\n");
    pair = await startLspPair({ root, load: false });
    expect(pair.client.messages).toEqual([]);
    await pair.client.connection.sendRequest("agent/listSessions", {});
    await waitFor(() => pair!.client.messages.length > 0);
    expect(pair.client.messages[0]!.message).toContain("key safety: expected one of");
  });
});
