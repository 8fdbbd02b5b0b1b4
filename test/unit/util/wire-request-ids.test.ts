/**
 * Request ids that bind one answer to one request: random (never a counter that starts again at
 * 1), mapped back to the library's own ids for the answer, the cancel naming the random id, and
 * an answer to no request of this connection (another server's, an earlier one's, a second
 * answer) refused.
 */
import { describe, expect, it } from "vitest";
import { newRequestId } from "../../../server/src/util/request-id.js";
import { WireRequestIds } from "../../../server/src/util/wire-request-ids.js";

function lspIds() {
  const strays: (number | string)[] = [];
  const ids = new WireRequestIds({ cancelMethod: "$/cancelRequest", cancelParam: "id", onStray: (id) => strays.push(id) });
  return { ids, strays };
}

describe("newRequestId", () => {
  it("is random and never repeats", () => {
    const seen = new Set(Array.from({ length: 2000 }, () => newRequestId()));
    expect(seen.size).toBe(2000);
    for (const id of seen) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("WireRequestIds", () => {
  it("sends each request under a random id and gives its answer the library's id back", () => {
    const { ids, strays } = lspIds();
    const a = ids.outgoing({ jsonrpc: "2.0", id: 1, method: "agent/requestPermission", params: {} });
    const b = ids.outgoing({ jsonrpc: "2.0", id: 2, method: "agent/askUser", params: {} });
    expect(typeof a.id).toBe("string");
    expect(a.id).not.toBe(b.id);
    expect(ids.incoming({ jsonrpc: "2.0", id: b.id, result: "B" })).toEqual({ jsonrpc: "2.0", id: 2, result: "B" });
    expect(ids.incoming({ jsonrpc: "2.0", id: a.id, result: "A" })).toEqual({ jsonrpc: "2.0", id: 1, result: "A" });
    expect(strays).toEqual([]);
  });

  it("refuses an answer whose id names no request it sent: a counter's id, another server's, a second answer", () => {
    const { ids, strays } = lspIds();
    const sent = ids.outgoing({ jsonrpc: "2.0", id: 1, method: "agent/requestPermission", params: {} });
    expect(ids.incoming({ jsonrpc: "2.0", id: 1, result: { optionId: "allow_once" } })).toBeUndefined();
    expect(ids.incoming({ jsonrpc: "2.0", id: newRequestId(), result: { optionId: "allow_once" } })).toBeUndefined();
    expect(ids.incoming({ jsonrpc: "2.0", id: sent.id, result: { optionId: "reject" } })).toMatchObject({ id: 1 });
    expect(ids.incoming({ jsonrpc: "2.0", id: sent.id, result: { optionId: "allow_once" } })).toBeUndefined();
    expect(strays).toHaveLength(3);
    expect(strays[0]).toBe(1);
  });

  it("names the random id in a cancel, and leaves the client's own requests and notifications alone", () => {
    const { ids } = lspIds();
    const sent = ids.outgoing({ jsonrpc: "2.0", id: 7, method: "workspace/applyEdit", params: {} });
    expect(ids.outgoing({ jsonrpc: "2.0", method: "$/cancelRequest", params: { id: 7 } })).toEqual({ jsonrpc: "2.0", method: "$/cancelRequest", params: { id: sent.id } });
    const acp = new WireRequestIds({ cancelMethod: "$/cancel_request", cancelParam: "requestId", onStray: () => undefined });
    const acpSent = acp.outgoing({ jsonrpc: "2.0", id: 0, method: "session/request_permission", params: {} });
    expect(acp.outgoing({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 0 } })).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: acpSent.id } });
    const request = { jsonrpc: "2.0", id: 3, method: "agent/prompt", params: {} };
    expect(ids.incoming(request)).toBe(request);
    const response = { jsonrpc: "2.0", id: 3, result: {} };
    expect(ids.outgoing(response)).toBe(response);
    const parseError = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } };
    expect(ids.incoming(parseError)).toBe(parseError);
  });

  it("forgets the oldest unanswered requests past its bound", () => {
    const ids = new WireRequestIds({ cancelMethod: "$/cancelRequest", cancelParam: "id", onStray: () => undefined, max: 2 });
    const first = ids.outgoing({ jsonrpc: "2.0", id: 1, method: "m", params: {} });
    ids.outgoing({ jsonrpc: "2.0", id: 2, method: "m", params: {} });
    const third = ids.outgoing({ jsonrpc: "2.0", id: 3, method: "m", params: {} });
    expect(ids.incoming({ jsonrpc: "2.0", id: first.id, result: null })).toBeUndefined();
    expect(ids.incoming({ jsonrpc: "2.0", id: third.id, result: null })).toMatchObject({ id: 3 });
  });
});
