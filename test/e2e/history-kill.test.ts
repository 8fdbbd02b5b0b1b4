/**
 * History survives a crash: SIGKILL the built server in the middle of a turn, start it again,
 * resume the session, and find every message written before the kill.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { initialize, spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let fake: FakeProvider;
const servers: SpawnedServer[] = [];
afterEach(async () => {
  for (const s of servers) s.child.kill("SIGKILL");
  await fake?.close();
});

async function start(root: string): Promise<SpawnedServer> {
  const s = spawnServer(root);
  servers.push(s);
  await initialize(s, root, fakeProviderOptions(fake));
  return s;
}

describe("history across a SIGKILL", () => {
  it("loses nothing written before the kill and resumes the conversation", async () => {
    fake = await startFakeProvider();
    const root = tempProject();
    const first = await start(root);
    const { result } = await first.request("agent/newSession", {});
    const sessionId = result.sessionId as string;
    fake.enqueue({ text: "Answer one." });
    expect((await first.request("agent/prompt", { sessionId, prompt: "first question" })).result.stopReason).toBe("end_turn");
    fake.enqueue({ text: "a half-finished second answer", hang: true });
    const before = first.messages.length;
    void first.request("agent/prompt", { sessionId, prompt: "second question" }).catch(() => undefined);
    await first.waitFor((m) => first.messages.indexOf(m) >= before && m.method === "agent/update" && m.params.update.kind === "text");
    first.child.kill("SIGKILL");
    await first.exited;

    const log = readFileSync(path.join(root, ".agent-lsp", "conversations", `${sessionId}.jsonl`), "utf8");
    const records = log.trim().split("\n").map((l) => JSON.parse(l));
    expect(records.filter((r) => r.type === "message").map((r) => [r.seq, r.message.role])).toEqual([
      [1, "user"],
      [2, "assistant"],
      [3, "user"],
    ]);

    const second = await start(root);
    const listed = await second.request("agent/listSessions", {});
    expect(listed.result.sessions[0]).toMatchObject({ sessionId, title: "first question" });
    const loaded = await second.request("agent/loadSession", { sessionId });
    expect(loaded.result).toMatchObject({ sessionId });
    const replayed = second.messages.filter((m) => m.method === "agent/update").map((m) => m.params.update);
    expect(replayed.map((u) => u.kind)).toEqual(["user_message", "text", "user_message"]);
    expect(replayed[2].text).toBe("second question");

    fake.enqueue({ text: "Answer three." });
    const third = await second.request("agent/prompt", { sessionId, prompt: "third question" });
    expect(third.result.stopReason).toBe("end_turn");
    const sent = fake.requests.at(-1)!.body.messages;
    expect(sent.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(sent[2])).toContain("second question");
    expect(JSON.stringify(sent[2])).toContain("third question");
    expect(fake.violations).toEqual([]);
  });
});
