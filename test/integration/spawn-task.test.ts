/**
 * spawn_task: a new session starts only after the user approves the prompt it will run; the
 * editor is told its id, agent/listSessions lists it, and it may not spawn tasks itself.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";
import { richCapabilities, safetyHarness, toolResultsSent } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const spawnCall = { name: "spawn_task", input: { prompt: "Upgrade vitest and fix what breaks.", title: "Upgrade vitest" } };
const listSessions = async () => ((await h.client.connection.sendRequest("agent/listSessions", {})) as { sessions: { sessionId: string; title: string }[] }).sessions;

describe("spawn_task", () => {
  it("starts a listed session on the approved prompt, names it in an update, and withholds spawn_task from it", async () => {
    h = await safetyHarness("full_access", { capabilities: richCapabilities() });
    const asked: any[] = [];
    h.client.script.requestPermission = (p) => {
      asked.push(p);
      return { optionId: "allow_once" };
    };
    h.fake.enqueue({ toolCalls: [spawnCall] }, { text: "Started it." }, { text: "Upgraded." });
    const parent = await h.newSession();
    await h.prompt(parent, "go");
    // Asked even in full_access, with the prompt shown.
    expect(asked).toHaveLength(1);
    expect(asked[0].summary).toContain("Upgrade vitest and fix what breaks.");
    const [spawned] = h.client.updatesOf("task_spawned");
    expect(spawned).toMatchObject({ kind: "task_spawned", title: "Upgrade vitest" });
    expect(spawned.sessionId).not.toBe(parent);
    expect(toolResultsSent(h)[0]!.text).toContain(spawned.sessionId);
    // The new session's own turn ran on the prompt, without spawn_task.
    await waitFor(() => h.client.updates.some((u) => u.sessionId === spawned.sessionId && u.update.kind === "text"));
    const childRequest = h.fake.requests.find((r) => JSON.stringify(r.body.messages[0]?.content).includes("Upgrade vitest and fix"))!;
    const names = childRequest.body.tools.map((t: any) => t.name);
    expect(names).toContain("agent");
    expect(names).not.toContain("spawn_task");
    expect((await listSessions()).map((s) => s.sessionId)).toEqual(expect.arrayContaining([parent, spawned.sessionId]));
  });

  it("starts nothing when the user declines", async () => {
    h = await safetyHarness("full_access", { capabilities: richCapabilities() });
    h.client.script.requestPermission = () => ({ optionId: "reject" });
    h.fake.enqueue({ toolCalls: [spawnCall] }, { text: "OK, not now." });
    const parent = await h.newSession();
    await h.prompt(parent, "go");
    expect(toolResultsSent(h)[0]).toMatchObject({ isError: true, text: expect.stringContaining('The user declined starting the task "Upgrade vitest"') });
    expect(h.client.updatesOf("task_spawned")).toEqual([]);
    expect((await listSessions()).map((s) => s.sessionId)).toEqual([parent]);
    expect(h.fake.requests).toHaveLength(2);
  });

  it("stays withheld from a spawned session after it is loaded again", async () => {
    h = await safetyHarness("full_access", { capabilities: richCapabilities() });
    h.client.script.requestPermission = () => ({ optionId: "allow_once" });
    h.fake.enqueue({ toolCalls: [spawnCall] }, { text: "Started it." }, { text: "Upgraded." });
    await h.prompt(await h.newSession(), "go");
    const [spawned] = h.client.updatesOf("task_spawned");
    await waitFor(() => h.fake.requests.length === 3);
    const other = await safetyHarness("full_access", { root: h.root });
    try {
      await other.client.connection.sendRequest("agent/loadSession", { sessionId: spawned.sessionId });
      other.fake.enqueue({ text: "ok" });
      await other.prompt(spawned.sessionId, "more");
      expect(other.fake.requests[0]!.body.tools.map((t: any) => t.name)).not.toContain("spawn_task");
    } finally {
      await other.dispose();
    }
  });
});
