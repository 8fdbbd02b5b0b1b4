/**
 * The open documents are the truth: on the built binary over stdio, a document opened with
 * unsaved text is what read_file returns to the model, not the file on disk.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { initialize, spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let fake: FakeProvider;
let server: SpawnedServer;
afterEach(async () => {
  server?.child.kill("SIGKILL");
  await fake?.close();
});

describe("read_file over stdio", () => {
  it("returns the editor's unsaved text", async () => {
    fake = await startFakeProvider();
    const root = tempProject();
    const file = path.join(root, "notes.txt");
    writeFileSync(file, "saved on disk\n");
    server = spawnServer(root);
    await initialize(server, root, fakeProviderOptions(fake, { tools: { provider_native: false } }));
    const uri = pathToFileURL(file).href;
    server.notify("textDocument/didOpen", { textDocument: { uri, languageId: "plaintext", version: 1, text: "saved on disk\n" } });
    server.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, text: "UNSAVED edit" }],
    });
    const { result } = await server.request("agent/newSession", {});
    fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] }, { text: "It says UNSAVED." });
    const answer = await server.request("agent/prompt", { sessionId: result.sessionId, prompt: "what does notes.txt say?" });
    expect(answer.result.stopReason).toBe("end_turn");
    const toolResult = JSON.stringify(fake.requests[1]!.body.messages[2]);
    expect(toolResult).toContain("UNSAVED edit on disk");
    expect(toolResult).not.toContain("saved on disk");
    expect(fake.violations).toEqual([]);
  });
});
