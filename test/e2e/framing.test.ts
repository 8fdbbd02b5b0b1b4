/**
 * Bad bytes on the wire: malformed JSON, a Content-Length that lies either way, a header
 * without a length. Each gets an error response that says what was wrong, and the server goes on.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverCapabilities } from "../../server/src/lsp/capabilities.js";
import { tempProject } from "../helpers/agent-setup.js";
import { initialize, spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let s: SpawnedServer;
beforeEach(async () => {
  const root = tempProject();
  s = spawnServer(root);
  await initialize(s, root);
});
afterEach(() => {
  s.child.kill("SIGKILL");
});

const frame = (body: string, length = Buffer.byteLength(body)) => `Content-Length: ${length}\r\n\r\n${body}`;
const stillServes = async () => {
  const res = await s.request("agent/listSessions", {});
  expect(res.result).toEqual({ sessions: [] });
};

describe("initialize on stdio", () => {
  it("is answered exactly once, with the same capabilities the in-process server gives", async () => {
    await stillServes();
    const answers = s.messages.filter((m) => m.id === 1 && m.method === undefined);
    expect(answers).toHaveLength(1);
    expect(answers[0].result.capabilities).toEqual(serverCapabilities({ capabilities: {} }));
    expect(answers[0].result.serverInfo.name).toBe("agent-lsp");
  });
});

describe("framing errors", () => {
  it("answers malformed JSON with -32700 and keeps serving", async () => {
    s.writeRaw(frame('{"jsonrpc":"2.0","id":5,"method":"agent/listSessions",'));
    const err = await s.waitFor((m) => m.error?.code === -32700);
    expect(err).toMatchObject({ id: null });
    expect(err.error.message).toMatch(/not valid JSON/);
    await stillServes();
  });

  it("reports a Content-Length that is too long, answering the request it swallowed", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 77, method: "agent/listSessions", params: {} });
    s.writeRaw(frame(body, Buffer.byteLength(body) + 40));
    const next = JSON.stringify({ jsonrpc: "2.0", id: 78, method: "agent/listSessions", params: {} });
    s.writeRaw(frame(next));
    const err = await s.waitFor((m) => m.id === 77 && m.error);
    expect(err.error.code).toBe(-32600);
    expect(err.error.message).toMatch(/Content-Length said \d+ bytes but the message body was \d+ bytes/);
    await expect(s.waitFor((m) => m.id === 78 && m.result)).resolves.toBeTruthy();
    await stillServes();
  });

  it("reports a Content-Length that is too long when no message follows", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 90, method: "agent/listSessions", params: {} });
    s.writeRaw(frame(body, Buffer.byteLength(body) + 10));
    const err = await s.waitFor((m) => m.id === 90 && m.error, 5000);
    expect(err.error.message).toMatch(/Content-Length said/);
    await stillServes();
  });

  it("reports a Content-Length that is too short and resynchronises", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 91, method: "agent/listSessions", params: {} });
    s.writeRaw(frame(body, 10));
    await s.waitFor((m) => m.error?.code === -32700);
    await stillServes();
  });

  it("reports a header without Content-Length", async () => {
    s.writeRaw("Content-Type: application/json\r\n\r\n");
    const err = await s.waitFor((m) => m.error && /Content-Length/.test(m.error.message));
    expect(err.error.code).toBe(-32700);
    await stillServes();
  });

  it("answers params of the wrong type with -32602 naming the field", async () => {
    const res = await s.request("agent/setMode", { sessionId: ["x"], mode: "ask" });
    expect(res.error.code).toBe(-32602);
    expect(res.error.message).toContain("sessionId");
    await stillServes();
  });
});
