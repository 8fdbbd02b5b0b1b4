/**
 * The ACP session UI without a process: what a permission prompt carries, how each answer maps
 * onto the gate's, questions asked as prompts whose options are the choices, and free-text
 * questions as form elicitations.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { AcpSessionUI } from "../../../server/src/acp/session-ui.js";
import type { PermissionRequest } from "../../../server/src/editor/session-ui.js";

const log = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

function ui(answer: (p: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>) {
  const asked: acp.RequestPermissionRequest[] = [];
  const session = new AcpSessionUI(
    async (params) => {
      asked.push(params);
      return answer(params);
    },
    () => "/project",
    log,
  );
  return { session, asked };
}

const request = (extra: Partial<PermissionRequest> = {}): PermissionRequest => ({
  sessionId: "s-1",
  requestId: "r-1",
  toolCall: { id: "t-1", name: "execute_command", title: "Run make", input: { command: "make" }, toolKind: "execute", command: { command: "make", cwd: "/project" } },
  summary: "execute_command: make",
  ...extra,
});

const pick = (kind: acp.PermissionOptionKind) => (p: acp.RequestPermissionRequest) => ({ outcome: { outcome: "selected" as const, optionId: p.options.find((o) => o.kind === kind)!.optionId } });

describe("AcpSessionUI.requestPermission", () => {
  it("maps each option onto the gate's answer", async () => {
    expect((await ui(pick("allow_once")).session.requestPermission(request(), new AbortController().signal)).optionId).toBe("allow_once");
    expect((await ui(pick("allow_always")).session.requestPermission(request(), new AbortController().signal)).optionId).toBe("allow_always");
    expect((await ui(pick("reject_once")).session.requestPermission(request(), new AbortController().signal)).optionId).toBe("reject");
    const cancelled = await ui(() => ({ outcome: { outcome: "cancelled" } })).session.requestPermission(request(), new AbortController().signal);
    expect(cancelled).toEqual({ optionId: "reject", note: "the client cancelled the prompt" });
    const failing = await ui(() => Promise.reject(new Error("Method not found"))).session.requestPermission(request(), new AbortController().signal);
    expect(failing).toEqual({ optionId: "reject", note: "the client could not answer (Method not found)" });
  });

  it("binds its options to the request: an option of another prompt is refused, never taken", async () => {
    const { session, asked } = ui((p) => ({ outcome: { outcome: "selected", optionId: p.options[0]!.optionId } }));
    await session.requestPermission(request({ requestId: "r-first" }), new AbortController().signal);
    const first = asked[0]!.options[0]!.optionId;
    expect(first).toContain("r-first");
    const late = ui(() => ({ outcome: { outcome: "selected", optionId: first } }));
    const answer = await late.session.requestPermission(request({ requestId: "r-second" }), new AbortController().signal);
    expect(answer.optionId).toBe("reject");
    expect(answer.note).toContain("an option of another request");
    expect(late.asked[0]!.options.every((o) => o.optionId.endsWith("@r-second"))).toBe(true);
  });

  it("offers no 'always' for what cannot be remembered, and shows a change as diff content", async () => {
    const { session, asked } = ui(pick("allow_once"));
    await session.requestPermission(request({ rememberable: false, files: [{ uri: "file:///project/a.ts", oldText: "a\n", newText: "b\n" }] }), new AbortController().signal);
    expect(asked[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "reject_once"]);
    expect(asked[0]!.toolCall).toMatchObject({ toolCallId: "t-1", kind: "execute", status: "pending", content: [{ type: "diff", path: "/project/a.ts", oldText: "a\n", newText: "b\n" }] });
  });
});

describe("AcpSessionUI.askUser", () => {
  it("asks a question with choices as a prompt whose options are the choices", async () => {
    const { session, asked } = ui((p) => ({ outcome: { outcome: "selected", optionId: p.options[1]!.optionId } }));
    const answer = await session.askUser({ sessionId: "s-1", requestId: "r-2", question: "Which way?", choices: ["left", "right"] }, new AbortController().signal);
    expect(answer).toBe("right");
    expect(asked[0]!.toolCall.title).toBe("Which way?");
    expect(asked[0]!.options.map((o) => o.name)).toEqual(["left", "right"]);
  });

  it("a free-text question to a client without form elicitation: no answer, and no prompt sent", async () => {
    const { session, asked } = ui(pick("allow_once"));
    expect(await session.askUser({ sessionId: "s-1", requestId: "r-2", question: "Name it?" }, new AbortController().signal)).toBeUndefined();
    expect(asked).toEqual([]);
  });

  /** A session UI whose client declares form elicitation and answers with `reply`. */
  function eliciting(reply: (p: acp.CreateElicitationRequest, signal: AbortSignal) => Promise<acp.CreateElicitationResponse>) {
    const elicited: acp.CreateElicitationRequest[] = [];
    const session = new AcpSessionUI(async () => ({ outcome: { outcome: "cancelled" } }), () => "/project", log, (params, signal) => {
      elicited.push(params);
      return reply(params, signal);
    });
    return { session, elicited };
  }

  it.each([
    ["accepted: the text written", { action: "accept", content: { answer: "sumPair" } }, "sumPair"],
    ["accepted empty: no answer", { action: "accept", content: { answer: "  " } }, undefined],
    ["declined: no answer", { action: "decline" }, undefined],
    ["cancelled: no answer", { action: "cancel" }, undefined],
  ] as [string, acp.CreateElicitationResponse, string | undefined][])("a free-text question is a one-field form: %s", async (_name, reply, expected) => {
    const { session, elicited } = eliciting(async () => reply);
    expect(await session.askUser({ sessionId: "s-1", requestId: "r-2", question: "Name it?" }, new AbortController().signal)).toBe(expected);
    expect(elicited[0]).toMatchObject({ mode: "form", sessionId: "s-1", message: "Name it?", requestedSchema: { properties: { answer: { type: "string" } }, required: ["answer"] } });
  });

  it("a form the user leaves open is withdrawn at the timeout: no answer", async () => {
    const { session } = eliciting((_p, signal) => new Promise((_r, reject) => signal.addEventListener("abort", () => reject(new Error("withdrawn")))));
    session.timeoutS = 0.05;
    expect(await session.askUser({ sessionId: "s-1", requestId: "r-2", question: "Name it?" }, new AbortController().signal)).toBeUndefined();
  });
});
