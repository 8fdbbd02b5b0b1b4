/**
 * A new session is answered from the configuration alone, before the agent (tools, policy, the
 * turn machinery) has loaded; the agent loads once that answer is written and holds the session
 * before it serves anything else (agent/runtime-start.ts). Both front ends, in process: the LSP
 * one through a linked pair, the ACP one through a pair of message streams.
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startAcpServer, type AcpServer } from "../../server/src/acp/server.js";
import { createRuntime } from "../../server/src/agent/runtime.js";
import type { Logger } from "../../server/src/util/log.js";
import { userConfigHome } from "../helpers/acp-client.js";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { startLspPair, type LspPair } from "../helpers/lsp-pair.js";
import { waitFor } from "../helpers/wait.js";

let fake: FakeProvider;
let pair: LspPair | undefined;
let acpEnd: (() => Promise<void>) | undefined;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(async () => {
  await pair?.close();
  await acpEnd?.();
  pair = acpEnd = undefined;
  vi.unstubAllEnvs();
  await fake.close();
});

/** createRuntime that counts its calls (or fails), to see when the agent loads. */
function countingRuntime(fail?: string): { create: typeof createRuntime; calls: () => number } {
  let calls = 0;
  const create: typeof createRuntime = (options) => {
    calls++;
    if (fail) throw new Error(fail);
    return createRuntime(options);
  };
  return { create, calls: () => calls };
}

/** A folder outside the project, for a hostile `.agent-lsp` link to point at. */
function outsideFolder(): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-outside-")));
}

describe("LSP agent/newSession before the agent has loaded", () => {
  it("is answered first; the agent loads after the answer and holds the session", async () => {
    const root = tempProject();
    const runtime = countingRuntime();
    pair = await startLspPair({ root, load: false, initializationOptions: fakeProviderOptions(fake), createRuntime: runtime.create });
    const info = (await pair.client.connection.sendRequest("agent/newSession", { mode: "ask" })) as { sessionId: string; mode: string; model: string };
    expect(runtime.calls()).toBe(0);
    expect(info.mode).toBe("ask");
    // A request on the session right after the answer waits for the agent, which knows it.
    await pair.client.connection.sendRequest("agent/setMode", { sessionId: info.sessionId, mode: "plan" });
    expect(runtime.calls()).toBe(1);
    const session = pair.server.runtime()!.agent.get(info.sessionId);
    expect({ mode: session.mode, model: session.model }).toEqual({ mode: "plan", model: info.model });
  });

  it("refuses a model no provider serves at once, without loading the agent", async () => {
    const runtime = countingRuntime();
    pair = await startLspPair({ root: tempProject(), load: false, initializationOptions: fakeProviderOptions(fake), createRuntime: runtime.create });
    await expect(pair.client.connection.sendRequest("agent/newSession", { model: "nowhere/model-x" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("model:") });
    await expect(pair.client.connection.sendRequest("agent/newSession", { mode: "reckless" })).rejects.toMatchObject({ code: -32602 });
    expect(runtime.calls()).toBe(0);
  });

  it("refuses the session when .agent-lsp links out of the project, naming the link", async () => {
    const root = tempProject();
    symlinkSync(outsideFolder(), path.join(root, ".agent-lsp"));
    pair = await startLspPair({ root, load: false, initializationOptions: fakeProviderOptions(fake) });
    await expect(pair.client.connection.sendRequest("agent/newSession", {})).rejects.toThrow(`${path.join(root, ".agent-lsp")} is a symbolic link`);
  });

  it("shows a bad config once, when the agent has loaded", async () => {
    const root = tempProject();
    mkdirSync(path.join(root, ".agent-lsp"));
    writeFileSync(path.join(root, ".agent-lsp", "config.toml"), "max_turns = \"many\"\n");
    pair = await startLspPair({ root, load: false, initializationOptions: fakeProviderOptions(fake) });
    await pair.client.connection.sendRequest("agent/newSession", {});
    await pair.server.ready();
    await waitFor(() => pair!.client.messages.length > 0);
    await pair.client.connection.sendRequest("agent/listSessions", {});
    expect(pair.client.messages.filter((m) => m.message.includes("max_turns"))).toHaveLength(1);
  });

  it("a shutdown right behind the answer waits for the agent and stops it", async () => {
    let disposed = 0;
    const create: typeof createRuntime = (options) => {
      const runtime = createRuntime(options);
      const dispose = runtime.dispose;
      return { ...runtime, dispose: () => (disposed++, dispose()) };
    };
    pair = await startLspPair({ root: tempProject(), load: false, initializationOptions: fakeProviderOptions(fake), createRuntime: create });
    await pair.client.connection.sendRequest("agent/newSession", {});
    await pair.client.connection.sendRequest("shutdown");
    expect(disposed).toBe(1);
  });

  it("keeps serving when the agent fails to load: each request says why", async () => {
    const runtime = countingRuntime("the tools failed to register");
    pair = await startLspPair({ root: tempProject(), load: false, initializationOptions: fakeProviderOptions(fake), createRuntime: runtime.create });
    const { sessionId } = (await pair.client.connection.sendRequest("agent/newSession", {})) as { sessionId: string };
    for (let i = 0; i < 2; i++) {
      await expect(pair.client.connection.sendRequest("agent/setMode", { sessionId, mode: "plan" })).rejects.toThrow("the tools failed to register");
    }
  });
});

/** An ACP server in process, and a client speaking raw JSON-RPC to it. */
function startAcpPair(create: typeof createRuntime): { request: (method: string, params: unknown) => Promise<unknown>; updates: acp.AnyMessage[]; server: AcpServer } {
  const toServer = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const toClient = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const logger: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };
  const server = startAcpServer({ stream: { readable: toServer.readable, writable: toClient.writable }, logger, create });
  const writer = toServer.writable.getWriter();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const updates: acp.AnyMessage[] = [];
  let nextId = 1;
  void (async () => {
    for await (const message of toClient.readable as unknown as AsyncIterable<acp.AnyMessage>) {
      const m = message as { id?: number; result?: unknown; error?: unknown; method?: string };
      if (m.method) updates.push(message);
      else if (m.id !== undefined) {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) p?.reject(m.error);
        else p?.resolve(m.result);
      }
    }
  })();
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      void writer.write({ jsonrpc: "2.0", id, method, params } as acp.AnyMessage);
    });
  acpEnd = async () => {
    await writer.close().catch(() => undefined);
    await server.dispose();
  };
  return { request, updates, server };
}

describe("ACP session/new before the agent has loaded", () => {
  beforeEach(() => {
    vi.stubEnv("XDG_CONFIG_HOME", userConfigHome(fakeProviderOptions(fake)));
  });

  it("is answered first; the agent loads after the answer, holds the session and announces its commands", async () => {
    const root = tempProject();
    const runtime = countingRuntime();
    const c = startAcpPair(runtime.create);
    await c.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const answer = (await c.request("session/new", { cwd: root, mcpServers: [] })) as acp.NewSessionResponse;
    expect(runtime.calls()).toBe(0);
    expect(answer.modes?.currentModeId).toBe("full_access");
    await c.request("session/set_mode", { sessionId: answer.sessionId, modeId: "plan" });
    expect(runtime.calls()).toBe(1);
    expect(c.server.client.built()!.agent.get(answer.sessionId).mode).toBe("plan");
    await waitFor(() => c.updates.some((u) => JSON.stringify(u).includes("available_commands_update")));
  });

  it("refuses a linked .agent-lsp at session/new, naming the link", async () => {
    const root = tempProject();
    symlinkSync(outsideFolder(), path.join(root, ".agent-lsp"));
    const c = startAcpPair(countingRuntime().create);
    await c.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    await expect(c.request("session/new", { cwd: root, mcpServers: [] })).rejects.toMatchObject({ message: expect.stringContaining(`${path.join(root, ".agent-lsp")} is a symbolic link`) });
  });

  it("answers a prompt with the reason when the agent fails to load, and keeps serving", async () => {
    const c = startAcpPair(countingRuntime("the tools failed to register").create);
    await c.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = (await c.request("session/new", { cwd: tempProject(), mcpServers: [] })) as acp.NewSessionResponse;
    for (let i = 0; i < 2; i++) {
      await expect(c.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).rejects.toMatchObject({ message: expect.stringContaining("the tools failed to register") });
    }
  });
});
