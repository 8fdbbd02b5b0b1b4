import { describe, expect, it } from "vitest";
import { FairPacer, FairQueue, MAIN_LANE, sessionRoute } from "../../../server/src/util/fair-queue.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("FairQueue", () => {
  it("takes lanes in turn and keeps each lane's order", () => {
    const q = new FairQueue<string>();
    for (const item of ["a1", "a2", "a3", "a4"]) q.push("a", item);
    q.push("main", "m1");
    q.push("b", "b1");
    q.push("main", "m2");
    const out: string[] = [];
    while (q.size) out.push(q.shift()!);
    expect(out).toEqual(["a1", "m1", "b1", "a2", "m2", "a3", "a4"]);
    expect(q.shift()).toBeUndefined();
    expect(q.has("a")).toBe(false);
  });
});

describe("FairQueue barriers", () => {
  it("takes nothing pushed after a barrier before it, however many wait in its lane", () => {
    const q = new FairQueue<string>();
    q.push("main", "change1", true);
    q.push("main", "change2", true);
    q.push("main", "change3", true);
    q.push("s", "prompt");
    q.push("main", "listSessions");
    const out: string[] = [];
    while (q.size) out.push(q.shift()!);
    expect(out).toEqual(["change1", "change2", "change3", "prompt", "listSessions"]);
  });

  it("still lets lanes take turns for what came before the barrier", () => {
    const q = new FairQueue<string>();
    for (const item of ["a1", "a2", "a3"]) q.push("a", item);
    q.push("main", "m1");
    q.push("main", "change", true);
    q.push("a", "a4");
    q.push("b", "b1");
    const out: string[] = [];
    while (q.size) out.push(q.shift()!);
    // a4 and b1 came after the change: both wait for it; a1..a3 and m1 take turns before it.
    expect(out.indexOf("change")).toBeLessThan(out.indexOf("a4"));
    expect(out.indexOf("change")).toBeLessThan(out.indexOf("b1"));
    expect(out.slice(0, 2)).toEqual(["a1", "m1"]);
    expect(out.filter((x) => x.startsWith("a"))).toEqual(["a1", "a2", "a3", "a4"]);
  });
});

describe("sessionRoute", () => {
  const route = sessionRoute("agent/cancel");
  it.each([
    ["a request naming a session", { id: 1, method: "agent/prompt", params: { sessionId: "s1" } }, { lane: "session:s1" }],
    ["a request naming none", { id: 2, method: "agent/listSessions", params: {} }, { lane: MAIN_LANE }],
    ["an answer", { id: 3, result: { sessionId: "s1" } }, { lane: MAIN_LANE }],
    ["a buffer's change, a barrier", { method: "textDocument/didChange", params: { sessionId: "s1" } }, { lane: MAIN_LANE, barrier: true }],
    ["a watched file's change, a barrier", { method: "workspace/didChangeWatchedFiles", params: {} }, { lane: MAIN_LANE, barrier: true }],
    ["another notification", { method: "$/setTrace", params: { value: "off" } }, { lane: MAIN_LANE }],
    ["a workspace request, no barrier", { id: 9, method: "workspace/executeCommand", params: { command: "x" } }, { lane: MAIN_LANE }],
    ["the cancel", { method: "agent/cancel", params: { sessionId: "s1" } }, { lane: MAIN_LANE, alsoAfter: ["session:s1"] }],
    ["a sessionId that is not a string", { id: 4, method: "agent/prompt", params: { sessionId: 7 } }, { lane: MAIN_LANE }],
  ])("%s", (_, message, expected) => {
    expect(route(message)).toEqual(expected);
  });
});

describe("FairPacer", () => {
  type Msg = { id?: number; method: string; params?: { sessionId?: string } };
  const prompt = (id: number, sessionId = "busy"): Msg => ({ id, method: "agent/prompt", params: { sessionId } });

  it("hands a message on at once when nothing waits, then one per turn of the event loop", async () => {
    const got: number[] = [];
    const pacer = new FairPacer<Msg>((m) => got.push(m.id!), sessionRoute("agent/cancel"));
    pacer.push(prompt(1));
    expect(got).toEqual([1]);
    pacer.push(prompt(2));
    pacer.push(prompt(3));
    expect(got).toEqual([1]);
    await nextTurn();
    expect(got).toEqual([1, 2]);
    await nextTurn();
    expect(got).toEqual([1, 2, 3]);
  });

  it("lets a cheap request and another session's through a burst on one session", async () => {
    const got: string[] = [];
    const pacer = new FairPacer<Msg>((m) => got.push(`${m.method}:${m.id}`), sessionRoute("agent/cancel"));
    for (let i = 1; i <= 1000; i++) pacer.push(prompt(i));
    pacer.push({ id: 5000, method: "agent/listSessions", params: {} });
    pacer.push(prompt(6000, "other"));
    while (got.length < 4) await nextTurn();
    expect(got).toEqual(["agent/prompt:1", "agent/prompt:2", "agent/listSessions:5000", "agent/prompt:6000"]);
  });

  it("never hands a prompt on before a buffer change the editor sent ahead of it", async () => {
    const got: string[] = [];
    const pacer = new FairPacer<Msg>((m) => got.push(m.id === undefined ? m.method : `${m.method}:${m.id}`), sessionRoute("agent/cancel"));
    pacer.push(prompt(1));
    for (let i = 0; i < 3; i++) pacer.push({ method: "textDocument/didChange" });
    pacer.push(prompt(2, "other"));
    while (got.length < 5) await nextTurn();
    expect(got).toEqual(["agent/prompt:1", "textDocument/didChange", "textDocument/didChange", "textDocument/didChange", "agent/prompt:2"]);
  });

  it("runs a cancel at once and again after the prompts of its session it overtook", async () => {
    const got: string[] = [];
    const pacer = new FairPacer<Msg>((m) => got.push(m.id === undefined ? `cancel ${m.params!.sessionId}` : String(m.id)), sessionRoute("agent/cancel"));
    for (let i = 1; i <= 3; i++) pacer.push(prompt(i));
    pacer.push({ method: "agent/cancel", params: { sessionId: "busy" } });
    pacer.push({ method: "agent/cancel", params: { sessionId: "idle" } });
    while (got.length < 6) await nextTurn();
    // The busy session's cancel comes right after the prompt being handled, and once more after its
    // last waiting prompt; the idle session's only once (nothing of it was waiting).
    expect(got).toEqual(["1", "2", "cancel busy", "3", "cancel idle", "cancel busy"]);
  });

  it("reports delivered only after every pushed message went on", async () => {
    const got: number[] = [];
    const pacer = new FairPacer<Msg>((m) => got.push(m.id!), sessionRoute("agent/cancel"));
    for (let i = 1; i <= 3; i++) pacer.push(prompt(i));
    const closed = new Promise<number>((resolve) => pacer.whenDelivered(() => resolve(got.length)));
    expect(await closed).toBe(3);
    let quiet = false;
    pacer.whenDelivered(() => (quiet = true));
    await nextTurn();
    expect(quiet).toBe(true);
  });
});
