/**
 * One core, two front ends: the same tests of the core's behaviour run against the LSP front end
 * and the ACP front end, each driven through the built binary as its client would drive it. What
 * a turn streams, how a gated write is asked and answered, what a mode forbids, a cancel, the
 * history after a reload and a slash command must come out the same whichever protocol carries
 * them; only the wire differs (test/helpers/front-end-drivers.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { startAcpDriver, startLspDriver, type FrontEndDriver } from "../helpers/front-end-drivers.js";
import { waitFor } from "../helpers/wait.js";

let fake: FakeProvider | undefined;
let driver: FrontEndDriver | undefined;
afterEach(async () => {
  await driver?.close();
  await fake?.close();
  driver = fake = undefined;
});

const FRONT_ENDS = [
  { name: "lsp", start: startLspDriver },
  { name: "acp", start: startAcpDriver },
] as const;

/** The fake, a project with a.txt, and the front end on it in `safety` mode. */
async function start(startDriver: (root: string, options: Record<string, unknown>) => Promise<FrontEndDriver>, safety = "ask"): Promise<{ d: FrontEndDriver; f: FakeProvider; root: string; sessionId: string }> {
  fake = await startFakeProvider();
  const root = tempProject();
  writeFileSync(path.join(root, "a.txt"), "one\n");
  driver = await startDriver(root, fakeProviderOptions(fake, { safety, tools: { provider_native: false } }));
  return { d: driver, f: fake, root, sessionId: await driver.newSession() };
}

const WRITE = { toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "two\n" } }] };
const READ = { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] };

/** The text of the last tool result the model was sent. */
function lastToolResult(f: FakeProvider): string {
  const messages = f.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b: { type?: string }) => b.type === "tool_result");
  return JSON.stringify(results.at(-1));
}

describe.each(FRONT_ENDS)("the core through the $name front end", ({ start: startDriver }) => {
  it("a prompt streams the answer and ends with end_turn", async () => {
    const { d, f, sessionId } = await start(startDriver);
    f.enqueue({ text: "Hello in several chunks.", chunkSize: 4 });
    expect(await d.prompt(sessionId, "hi")).toBe("end_turn");
    expect(d.answerText(sessionId)).toBe("Hello in several chunks.");
    expect(f.violations).toEqual([]);
  });

  it("a write in ask mode is asked; allowed, it lands and the tool call completes", async () => {
    const { d, f, root, sessionId } = await start(startDriver);
    f.enqueue(READ, WRITE, { text: "Written." });
    await d.prompt(sessionId, "change a.txt");
    expect(d.permissionsAsked()).toBe(1);
    await waitFor(() => readFileSync(path.join(root, "a.txt"), "utf8") === "two\n", 5000);
    const calls = [...d.toolStatuses(sessionId).values()];
    expect(calls.at(-1)).toContain("completed");
  });

  it("a write in ask mode rejected: nothing changes, the call fails and the model is told", async () => {
    const { d, f, root, sessionId } = await start(startDriver);
    d.permissionReply = "reject";
    f.enqueue(READ, WRITE, { text: "Left it." });
    await d.prompt(sessionId, "change a.txt");
    expect(d.permissionsAsked()).toBe(1);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect([...d.toolStatuses(sessionId).values()].at(-1)).toContain("failed");
    expect(lastToolResult(f)).toMatch(/declined|rejected/i);
  });

  it("read_only mode refuses a write without asking", async () => {
    const { d, f, root, sessionId } = await start(startDriver);
    await d.setMode(sessionId, "read_only");
    f.enqueue(READ, WRITE, { text: "Could not." });
    await d.prompt(sessionId, "change a.txt");
    expect(d.permissionsAsked()).toBe(0);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(lastToolResult(f)).toMatch(/read.only/i);
  });

  it("a cancel during a stream ends the turn cancelled; the next turn still has the history", async () => {
    const { d, f, sessionId } = await start(startDriver);
    f.enqueue({ text: "x".repeat(400), chunkSize: 2, chunkDelayMs: 20 });
    const turn = d.prompt(sessionId, "first question");
    await waitFor(() => d.answerText(sessionId).length > 0, 10_000);
    d.cancel(sessionId);
    expect(await turn).toBe("cancelled");
    f.enqueue({ text: "Second answer." });
    expect(await d.prompt(sessionId, "second question")).toBe("end_turn");
    expect(JSON.stringify(f.requests.at(-1)!.body.messages)).toContain("first question");
  });

  it("a loaded session replays what was said", async () => {
    const { d, f, sessionId } = await start(startDriver);
    f.enqueue({ text: "Remember this answer." });
    await d.prompt(sessionId, "a question to remember");
    const before = d.answerText(sessionId).length;
    await d.loadSession(sessionId);
    await waitFor(() => d.answerText(sessionId).length > before, 5000);
    expect(d.userTexts(sessionId)).toContain("a question to remember");
    expect(d.answerText(sessionId).slice(before)).toContain("Remember this answer.");
  });

  it("/undo puts back what the last change replaced", async () => {
    const { d, f, root, sessionId } = await start(startDriver, "full_access");
    f.enqueue(READ, WRITE, { text: "Written." });
    await d.prompt(sessionId, "change a.txt");
    await waitFor(() => readFileSync(path.join(root, "a.txt"), "utf8") === "two\n", 5000);
    expect(await d.command(sessionId, "undo")).toMatch(/a\.txt/);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
  });
});
