/**
 * Every request with an id gets an answer, on the built binary over stdio: a message that is not
 * a valid JSON-RPC 2.0 request gets -32600 Invalid Request naming what is wrong (the LSP library
 * used to drop some silently, so the client waited forever, and to run others). An invalid
 * notification is logged to stderr and never answered.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempProject } from "../helpers/agent-setup.js";
import { initialize, spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let s: SpawnedServer;
afterEach(() => {
  s.child.kill("SIGKILL");
});

const frame = (message: unknown) => {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** The one answer to the message with `id`. */
async function answerTo(id: unknown): Promise<any> {
  const answer = await s.waitFor((m) => m.id === id && m.method === undefined, 5000);
  return answer;
}

describe("invalid requests after initialize", () => {
  beforeEach(async () => {
    const root = tempProject();
    s = spawnServer(root);
    await initialize(s, root);
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["a method that is a number", { jsonrpc: "2.0", id: 11, method: 123, params: {} }, /"method" must be a string naming the method \(got 123\)/],
    ["no method", { jsonrpc: "2.0", id: 12, params: {} }, /has no "method"/],
    ["no jsonrpc", { id: 13, method: "agent/listSessions", params: {} }, /"jsonrpc" must be "2\.0" \(it is missing\)/],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 14, method: "agent/listSessions", params: {} }, /"jsonrpc" must be "2\.0" \(got "1\.0"\)/],
    ["params that are a number", { jsonrpc: "2.0", id: 15, method: "agent/listSessions", params: 5 }, /"params" must be an object or an array \(got 5\)/],
    ["params that are a string", { jsonrpc: "2.0", id: "s16", method: "agent/listSessions", params: "x" }, /"params" must be an object or an array \(got "x"\)/],
  ];
  it.each(cases)("answers %s with -32600 and the reason, and keeps serving", async (_name, message, reason) => {
    s.writeRaw(frame(message));
    const answer = await answerTo(message.id);
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toMatch(reason);
    expect(answer.result).toBeUndefined();
    expect((await s.request("agent/listSessions", {})).result).toEqual({ sessions: [] });
  });

  it("answers a request whose id is neither a string nor a number with id null", async () => {
    s.writeRaw(frame({ jsonrpc: "2.0", id: true, method: "agent/listSessions", params: {} }));
    const answer = await s.waitFor((m) => m.id === null && m.error, 5000);
    expect(answer.error).toEqual({ code: -32600, message: 'Invalid request: "id" must be a string or a number (got true).' });
  });

  it("takes params: null as no params (some clients send it with shutdown)", async () => {
    s.writeRaw(frame({ jsonrpc: "2.0", id: 30, method: "shutdown", params: null }));
    expect(await answerTo(30)).toMatchObject({ result: null });
  });

  it("logs an invalid notification to stderr and does not answer it", async () => {
    s.writeRaw(frame({ jsonrpc: "2.0", method: 5 }));
    s.writeRaw(frame({ method: "textDocument/didOpen", params: { textDocument: { uri: "file:///x", languageId: "x", version: 1, text: "" } } }));
    await s.request("agent/listSessions", {});
    await expect.poll(() => s.stderr(), { timeout: 5000 }).toMatch(/Invalid notification: "method" must be a string naming the method \(got 5\); it was ignored\./);
    expect(s.stderr()).toMatch(/Invalid notification: "jsonrpc" must be "2\.0" \(it is missing\); it was ignored\./);
    const answers = s.messages.filter((m) => m.method === undefined);
    // initialize and the listSessions above: nothing for the notifications.
    expect(answers.map((m) => m.id)).toEqual([1, 2]);
  });
});

describe("an invalid first message, before the LSP library has loaded", () => {
  it("is answered at once, and initialize still works after it", async () => {
    const root = tempProject();
    s = spawnServer(root);
    s.writeRaw(frame({ jsonrpc: "2.0", id: 99, method: 123 }));
    const answer = await answerTo(99);
    expect(answer.error).toMatchObject({ code: -32600, message: expect.stringContaining('"method" must be a string') });
    const init = await initialize(s, root);
    expect(init.result.serverInfo.name).toBe("agent-lsp");
  });
});
