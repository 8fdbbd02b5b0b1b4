/**
 * The checklist (task_create, task_update, task_list, change_todo_list) and the reporting tools
 * (working_respond, phase_report, attempt_completion) through a real turn: the updates the editor
 * gets, what the model reads back, the approvals they ask, and the checklist after a resume.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { waitFor } from "../helpers/wait.js";
import { richCapabilities, safetyHarness, toolResultsSent } from "./safety-helpers.js";

const harnesses: AgentHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
});

async function harness(options: Parameters<typeof safetyHarness>[1] = {}, mode = "full_access"): Promise<AgentHarness> {
  const h = await safetyHarness(mode, { capabilities: richCapabilities(), ...options });
  harnesses.push(h);
  return h;
}

const plans = (h: AgentHarness) => h.client.updatesOf("plan").map((u) => u.entries.map((e: any) => `${e.id}:${e.status}:${e.content}`));

describe("the checklist", () => {
  it("is created and updated through tools, streamed as plan updates, and read back by task_list", async () => {
    const h = await harness();
    h.fake.enqueue(
      { toolCalls: [{ name: "task_create", input: { tasks: ["Read the parser", "Fix the bug"] } }] },
      { toolCalls: [{ name: "task_update", input: { id: "1", status: "completed" } }, { name: "task_update", input: { id: 2, status: "in_progress" } }] },
      { toolCalls: [{ name: "task_create", input: { tasks: ["Run the tests"] } }, { name: "task_list", input: {} }] },
      { toolCalls: [{ name: "task_update", input: { id: "9", status: "completed" } }] },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "fix it");
    expect(plans(h)).toEqual([
      ["1:pending:Read the parser", "2:pending:Fix the bug"],
      ["1:completed:Read the parser", "2:pending:Fix the bug"],
      ["1:completed:Read the parser", "2:in_progress:Fix the bug"],
      ["1:completed:Read the parser", "2:in_progress:Fix the bug", "3:pending:Run the tests"],
    ]);
    const results = toolResultsSent(h);
    expect(results[4]!.text).toBe("Checklist (1 of 3 done):\n[x] 1. Read the parser\n[~] 2. Fix the bug (in progress)\n[ ] 3. Run the tests");
    expect(results[5]!).toMatchObject({ isError: true, text: expect.stringMatching(/^There is no checklist item "9"\.\nChecklist \(1 of 3 done\)/) });
  });

  it("is restored when the session is loaded, in the replay and for the model's tools", async () => {
    const first = await harness();
    const id = await first.newSession();
    first.fake.enqueue({ toolCalls: [{ name: "task_create", input: { tasks: ["One", "Two"] } }] }, { toolCalls: [{ name: "task_update", input: { id: "2", status: "completed" } }] }, { text: "ok" });
    await first.prompt(id, "plan it");

    const second = await harness({ root: first.root });
    await second.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    expect(plans(second)).toEqual([["1:pending:One", "2:completed:Two"]]);
    second.fake.enqueue({ toolCalls: [{ name: "task_create", input: { tasks: ["Three"] } }] }, { text: "ok" });
    await second.prompt(id, "more");
    expect(plans(second).at(-1)).toEqual(["1:pending:One", "2:completed:Two", "3:pending:Three"]);
  });

  it("is replaced by change_todo_list only once the user approves, with the change shown as a diff", async () => {
    const h = await harness({}, "full_access");
    const asked: any[] = [];
    const answers = ["reject", "allow_once"];
    h.client.script.requestPermission = (p) => {
      asked.push(p);
      return { optionId: answers.shift() };
    };
    const replace = { name: "change_todo_list", input: { tasks: ["New A", { content: "New B", status: "completed" }], reason: "The plan changed" } };
    h.fake.enqueue(
      { toolCalls: [{ name: "task_create", input: { tasks: ["Old"] } }] },
      { toolCalls: [replace] },
      { toolCalls: [replace] },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "go");
    // Asked even in full_access: the list is the user's.
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ toolCall: { name: "change_todo_list" }, summary: expect.stringContaining("The plan changed") });
    expect(asked[0].options.map((o: any) => o.optionId)).not.toContain("allow_always");
    expect(asked[0].diff).toContain("-[ ] 1. Old");
    expect(asked[0].diff).toContain("+[x] 2. New B");
    const results = toolResultsSent(h);
    expect(results[1]).toMatchObject({ isError: true, text: expect.stringContaining("The user declined the new checklist") });
    expect(results[2]).toMatchObject({ isError: false, text: expect.stringContaining("[x] 2. New B") });
    expect(plans(h)).toEqual([["1:pending:Old"], ["1:pending:New A", "2:completed:New B"]]);
  });
});

describe("reporting without ending the turn", () => {
  it("streams working_respond as a working_message and goes on", async () => {
    const h = await harness();
    h.fake.enqueue({ toolCalls: [{ name: "working_respond", input: { message: "Looking at the parser next." } }] }, { text: "Found it." });
    const res = await h.prompt(await h.newSession(), "go");
    expect(res.stopReason).toBe("end_turn");
    expect(h.client.updatesOf("working_message")).toEqual([{ kind: "working_message", text: "Looking at the parser next." }]);
    expect(h.fake.requests).toHaveLength(2);
  });

  it.each([
    ["act_mode_respond", { message: "Reading the tests first." }, "working_message"],
    ["status_update", { completed: "Parser read", verification: "none yet" }, "phase_report"],
  ])("a call under the older name %s runs the tool it became", async (name, input, kind) => {
    const h = await harness();
    h.fake.enqueue({ toolCalls: [{ name, input }] }, { text: "Done." });
    const res = await h.prompt(await h.newSession(), "go");
    expect(res.stopReason).toBe("end_turn");
    expect(h.client.updatesOf(kind)).toHaveLength(1);
    expect(JSON.stringify(h.fake.requests[0]!.body.tools.map((t: { name: string }) => t.name))).not.toContain(name);
  });

  it("phase_report with requires_acknowledgment waits for the user and goes on when they continue", async () => {
    const h = await harness({ capabilities: defaultCapabilities({ experimental: { agent: { requestPermission: true, askUser: true } } }) });
    let release!: (v: unknown) => void;
    h.client.script.askUser = () => new Promise((resolve) => (release = resolve));
    const report = { completed: "Parser rewritten", verification: "12 tests pass", next_phase: "Migrate callers", requires_acknowledgment: true };
    h.fake.enqueue({ toolCalls: [{ name: "phase_report", input: report }] }, { text: "Next phase done." });
    const turn = h.prompt(await h.newSession(), "go");
    await waitFor(() => h.client.requests.some((r) => r.method === "agent/askUser"));
    // Waiting: the model has not been called again.
    expect(h.fake.requests).toHaveLength(1);
    expect(h.client.updatesOf("phase_report")).toEqual([
      { kind: "phase_report", completed: "Parser rewritten", verification: "12 tests pass", nextPhase: "Migrate callers", requiresAcknowledgment: true },
    ]);
    expect(h.client.requests.find((r) => r.method === "agent/askUser")!.params.choices).toEqual(["Continue", "Stop here"]);
    release({ answer: "Continue" });
    expect((await turn).stopReason).toBe("end_turn");
    expect(h.fake.requests).toHaveLength(2);
    expect(toolResultsSent(h)[0]!.text).toContain("acknowledged");
  });

  it("phase_report ends the turn when the user stops", async () => {
    const h = await harness({ capabilities: defaultCapabilities({ experimental: { agent: { requestPermission: true, askUser: true } } }) });
    h.client.script.askUser = () => ({ answer: "Stop here" });
    h.fake.enqueue({ toolCalls: [{ name: "phase_report", input: { completed: "A", verification: "B", requires_acknowledgment: true } }] });
    const res = await h.prompt(await h.newSession(), "go");
    expect(res.stopReason).toBe("end_turn");
    expect(h.fake.requests).toHaveLength(1);
    expect(h.fake.violations).toEqual([]);
  });

  it("attempt_completion ends the turn with the result shown as a completion, and replays as one", async () => {
    const h = await harness();
    h.fake.enqueue({ text: "Done. ", toolCalls: [{ name: "attempt_completion", input: { result: "Fixed the parser; 12 tests pass.", command: "npm test" } }] });
    const id = await h.newSession();
    const res = await h.prompt(id, "go");
    expect(res.stopReason).toBe("end_turn");
    expect(h.fake.requests).toHaveLength(1);
    expect(h.client.updatesOf("completion")).toEqual([{ kind: "completion", result: "Fixed the parser; 12 tests pass.", command: "npm test" }]);
    // The next prompt goes on from the completed call: its result is in the history.
    h.fake.enqueue({ text: "ok" });
    await h.prompt(id, "thanks");
    expect(h.fake.violations).toEqual([]);

    const other = await harness({ root: h.root });
    await other.client.connection.sendRequest("agent/loadSession", { sessionId: id });
    expect(other.client.updatesOf("completion")).toEqual([{ kind: "completion", result: "Fixed the parser; 12 tests pass.", command: "npm test" }]);
  });
});
