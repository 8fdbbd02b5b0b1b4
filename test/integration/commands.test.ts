/**
 * The command tools through the whole server in-process: a model's calls via agent/prompt,
 * agent/cancel killing a running tree, progress as $/progress and tool_call_update, and the
 * user's /logs and /stop through agent/command, each session seeing only its own processes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addProcessCommands } from "../../server/src/agent/commands/process-commands.js";
import { PROCESSES_SERVICE, ProcessManager, processManagerFrom } from "../../server/src/exec/processes.js";
import { commandTools } from "../../server/src/tools/commands/command-tools.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { uniqueSleep, waitForSleepers } from "../helpers/host-processes.js";
import { processGone, survivors } from "../unit/exec/fake-context.js";
import { PROMPTLY_MS } from "../helpers/wait.js";

let h: AgentHarness;

/**
 * The command tools, their process manager and /logs + /stop, as the server wires them. Where
 * the server already registers them (agent/builtins.ts), that wiring is what gets tested.
 */
async function ensureCommandWiring(): Promise<ProcessManager> {
  // The agent may load just after initialize is answered: wait for it.
  await until(() => h.server.runtime() !== undefined);
  const rt = h.server.runtime()!;
  for (const tool of commandTools) if (!rt.registry.find(tool.name)) rt.registry.register(tool);
  const processes = processManagerFrom(rt.services) ?? new ProcessManager({ killGraceMs: 500 });
  rt.services[PROCESSES_SERVICE] = processes;
  if (!rt.commands.find("logs")) addProcessCommands(rt.commands, processes);
  return processes;
}

let processes: ProcessManager;
beforeEach(async () => {
  h = await startAgentHarness();
  processes = await ensureCommandWiring();
});
afterEach(async () => {
  processes.stopAll();
  await h.dispose();
});

const conn = () => h.client.connection;
const command = (sessionId: string, name: string, args: string[] = []) =>
  conn().sendRequest("agent/command", { sessionId, command: name, args }) as Promise<{ message: string }>;

/** The text of the tool results the model got back in request `n`. */
function toolResultsIn(n: number): string[] {
  const messages = h.fake.requests[n]!.body.messages as any[];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text).join("")));
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(process.platform === "win32")("commands through the server", () => {
  it("runs a model's command and feeds back the exit code and interleaved output", async () => {
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "echo out; echo err >&2; exit 4" } }] }, { text: "ok" });
    const id = await h.newSession();
    await h.prompt(id, "run it");
    expect(toolResultsIn(1)).toEqual([expect.stringMatching(/^Exit code: 4 \(.*\)\n\nout\nerr\n$/)]);
    expect(h.client.updatesOf("tool_call_update").at(-1)).toMatchObject({ status: "failed" });
    expect(h.fake.violations).toEqual([]);
  });

  it("agent/cancel kills a running command's whole tree and the turn ends cancelled", async () => {
    // Found from outside: in the sandbox the command's own pids belong to its namespace.
    const duration = uniqueSleep();
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: `sleep ${duration} & sleep ${duration}; wait` } }] });
    const id = await h.newSession();
    const answer = h.prompt(id, "run it");
    const pids = await waitForSleepers(duration, 2);
    expect(pids.every((p) => !processGone(p))).toBe(true);
    const cancelledAt = Date.now();
    await conn().sendNotification("agent/cancel", { sessionId: id });
    expect(await answer).toMatchObject({ stopReason: "cancelled" });
    expect(Date.now() - cancelledAt).toBeLessThan(PROMPTLY_MS);
    expect(await survivors(pids, 500)).toEqual([]);
  });

  it("reports a long command's progress as $/progress and tool_call_update", async () => {
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "echo warming; sleep 1.5; echo finished" } }] }, { text: "ok" });
    const id = await h.newSession();
    await h.prompt(id, "run it");
    const running = h.client.updatesOf("tool_call_update").filter((u) => u.status === "running" && u.output);
    expect(running[0]?.output).toMatch(/^\[running 1 s, (sandboxed|not sandboxed: .+)\]\nwarming$/);
    const progress = h.client.requests.filter((r) => r.method === "$/progress").map((r) => r.params.value);
    expect(progress[0]).toMatchObject({ kind: "begin", title: "$ echo warming; sleep 1.5; echo finished" });
    expect(progress).toContainEqual(expect.objectContaining({ kind: "report", message: "1 s · warming" }));
    expect(progress.at(-1)).toMatchObject({ kind: "end" });
  });

  it("a background job started by the model is the user's to read and stop, in that session only", async () => {
    h.fake.enqueue(
      { toolCalls: [{ name: "execute_command", input: { command: "echo serving; sleep 100", mode: "background" } }] },
      { text: "started" },
    );
    const mine = await h.newSession();
    const other = await h.newSession();
    await h.prompt(mine, "start the server");
    const jobId = /bg-\d+/.exec(toolResultsIn(1)[0]!)![0];

    expect((await command(mine, "logs")).message).toMatch(new RegExp(`^${jobId}  running`));
    await new Promise((r) => setTimeout(r, 200));
    expect((await command(mine, "logs", [jobId])).message).toBe(`${jobId}: running\n$ echo serving; sleep 100\nserving\n`);

    expect((await command(other, "logs")).message).toBe("No background processes in this session.");
    await expect(command(other, "stop", [jobId])).rejects.toThrow(/No process/);
    expect(processes.info(mine, jobId).running).toBe(true);

    expect((await command(mine, "stop")).message).toMatch(new RegExp(`^${jobId}: Stopped [12] process(es)? with SIGTERM\\.$`));
    expect(processes.info(mine, jobId).running).toBe(false);
  });
});
