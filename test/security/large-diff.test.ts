/**
 * Large rewrites do not freeze the server. A full rewrite used to be diffed with the `diff`
 * package on the main thread, quadratic in the worst case: 600 KB blocked every request for
 * seconds, 2 MB for over a minute. Now the diff has a work budget, and a diff too long to show
 * is replaced by a note.
 *
 * The stall is measured from outside on the built binary (the test process's own timers keep
 * running): a cheap request is sent over and over while the rewrite is under way, and the
 * slowest answer is the longest the server kept anyone waiting. Thresholds are loose (1 s) for a
 * loaded two-core machine; `npm run bench` prints the real figure.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, fakeProviderOptions, tempProject, type AgentHarness } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { answerTimes, maxStall, rewriteVersions, scriptRewrite, slowest } from "../helpers/large-rewrite.js";
import { agentLoaded, initialize, spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let fake: FakeProvider | undefined;
let server: SpawnedServer | undefined;
let harness: AgentHarness | undefined;
afterEach(async () => {
  server?.child.kill("SIGKILL");
  await fake?.close();
  await harness?.dispose();
  server = fake = harness = undefined;
});

describe("a 2 MB full rewrite on the built binary", () => {
  it("keeps answering other requests while it is diffed, and shows a note instead of a 4 MB diff", async () => {
    fake = await startFakeProvider();
    const root = tempProject();
    const { before, after } = rewriteVersions(2_000_000);
    writeFileSync(path.join(root, "big.txt"), before);
    const s = (server = spawnServer(root));
    await initialize(s, root, fakeProviderOptions(fake, { tools: { provider_native: false } }));
    const { result } = await s.request("agent/newSession", {});
    await agentLoaded(s);
    scriptRewrite(fake, "big.txt", after);
    const prompt = s.request("agent/prompt", { sessionId: result.sessionId, prompt: "rewrite big.txt" });
    const times = await answerTimes(() => s.request("agent/listSessions", {}), prompt);
    expect((await prompt).result.stopReason).toBe("end_turn");
    expect(readFileSync(path.join(root, "big.txt"), "utf8")).toBe(after);
    expect(slowest(times)).toBeLessThan(1000);
    const update = s.messages.find((m) => m.method === "agent/update" && m.params.update.kind === "tool_call_update" && m.params.update.diff);
    expect(update.params.update.diff).toMatch(/^diff of big\.txt not shown: its \d\.\d MB would go past the 1\.0 MB of diff shown per change \(\+50000 -50000 lines between lines 1 and 50000\)\n--- a\/big\.txt\n\+\+\+ b\/big\.txt\n$/);
  }, 60_000);
});

describe("a full rewrite of a document open in the editor", () => {
  it("is sent as one text edit without stalling the server", async () => {
    harness = await startAgentHarness({ options: { tools: { provider_native: false } } });
    const h = harness;
    const { before, after } = rewriteVersions(600_000);
    const file = path.join(h.root, "open.txt");
    writeFileSync(file, before);
    const uri = pathToFileURL(file).href;
    h.client.open(uri, before);
    const id = await h.newSession();
    scriptRewrite(h.fake, "open.txt", after);
    // In-process, a timer that fires late measures how long the event loop was held.
    const { value: answer, stallMs } = await maxStall(() => h.prompt(id, "rewrite open.txt"));
    expect(answer.stopReason).toBe("end_turn");
    expect(h.client.text(uri)).toBe(after);
    const edits = h.client.requests.filter((r) => r.method === "workspace/applyEdit").flatMap((r) => r.params.edit.documentChanges[0].edits);
    expect(edits).toHaveLength(1);
    expect(stallMs).toBeLessThan(1000);
  }, 60_000);
});
