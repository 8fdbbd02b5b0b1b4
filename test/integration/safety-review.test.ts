/**
 * The richer prompt: a client declaring experimental.agent.requestPermission gets the tool call,
 * the unified diff and each file's old and new text, and may answer with the text it accepted
 * after reviewing hunk by hunk; the server applies that text instead of the proposal.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { richCapabilities, safetyHarness, toolResultsSent, writeProjectFile } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const permissionRequests = () => h.client.requests.filter((r) => r.method === "agent/requestPermission").map((r) => r.params);

/** The real write_file, declaring that it shows its changes to the gate (the contract file tools follow). */
function useDiffAuthorizingWriteFile(): void {
  const registry = h.server.runtime()!.registry;
  const real = registry.find("write_file")!;
  registry.unregister("write_file");
  registry.register({ ...real, metadata: { ...real.metadata, authorizesChanges: true } });
}

describe("agent/requestPermission", () => {
  it("carries the tool call, the diff and each file's text, and applies the text the user accepted", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    useDiffAuthorizingWriteFile();
    const file = writeProjectFile(h, "src/app.txt", "one\ntwo\n");
    const uri = `file://${file}`;
    h.client.script.requestPermission = () => ({ optionId: "allow_once", accepted: [{ uri, text: "one\nTWO\n" }] });
    const input = { path: "src/app.txt", content: "one\nTWO\nthree\n" };
    h.fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "src/app.txt" } }] },
      { toolCalls: [{ name: "write_file", input }] },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "edit it");
    const requests = permissionRequests();
    expect(requests).toHaveLength(1);
    const req = requests[0];
    expect(req.toolCall).toMatchObject({ name: "write_file", input, toolKind: "edit", locations: [{ path: "src/app.txt" }] });
    expect(req.summary).toBe("write_file: src/app.txt (+2 -1)");
    expect(req.diff).toBe("--- a/src/app.txt\n+++ b/src/app.txt\n@@ -1,2 +1,3 @@\n one\n-two\n+TWO\n+three\n");
    expect(req.files).toEqual([{ uri, oldText: "one\ntwo\n", newText: "one\nTWO\nthree\n" }]);
    expect(req.options.map((o: { optionId: string }) => o.optionId)).toEqual(["allow_once", "allow_always", "reject"]);
    expect(readFileSync(file, "utf8")).toBe("one\nTWO\n");
    expect(h.client.requests.some((r) => r.method === "window/showMessageRequest")).toBe(false);
    expect(h.fake.violations).toEqual([]);
  });

  it("after a partial accept the tool result names, hunk by hunk, what the user declined", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    useDiffAuthorizingWriteFile();
    const before = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const file = writeProjectFile(h, "notes.txt", `${before.join("\n")}\n`);
    const proposal = before.map((l, i) => (i === 1 || i === 8 ? `${l} changed` : l));
    const kept = before.map((l, i) => (i === 1 ? `${l} changed` : l));
    h.client.script.requestPermission = () => ({ optionId: "allow_once", accepted: [{ uri: `file://${file}`, text: `${kept.join("\n")}\n` }] });
    h.fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "notes.txt", content: `${proposal.join("\n")}\n` } }] },
      { text: "done" },
    );
    await h.prompt(await h.newSession(), "edit it");
    expect(readFileSync(file, "utf8")).toBe(`${kept.join("\n")}\n`);
    const result = toolResultsSent(h).at(-1)!.text;
    expect(result).toContain("declined part of it");
    expect(result).toContain('notes.txt line 9: the file keeps "line 9"; you proposed "line 9 changed"');
    expect(result).not.toContain("line 2: the file keeps");
  });

  it("a refusal with a reason passes the user's words to the model", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    useDiffAuthorizingWriteFile();
    const file = writeProjectFile(h, "notes.txt", "one\n");
    h.client.script.requestPermission = () => ({ optionId: "reject", reason: "  use tabs, not spaces  " });
    h.fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "notes.txt" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "notes.txt", content: "two\n" } }] },
      { text: "ok" },
    );
    await h.prompt(await h.newSession(), "edit it");
    expect(readFileSync(file, "utf8")).toBe("one\n");
    const result = toolResultsSent(h).at(-1)!;
    expect(result.isError).toBe(true);
    expect(result.text).toContain('The user said: "use tabs, not spaces"');
  });

  it("an outside write is asked once, in the same prompt as its diff", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    useDiffAuthorizingWriteFile();
    const outside = path.join(path.dirname(h.root), `${path.basename(h.root)}-outside`, "notes.txt");
    h.client.script.requestPermission = () => ({ optionId: "allow_once" });
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: outside, content: "hi\n" } }] }, { text: "done" });
    await h.prompt(await h.newSession(), "write outside");
    expect(permissionRequests()).toHaveLength(1);
    expect(permissionRequests()[0].summary).toContain("outside the project");
    expect(readFileSync(outside, "utf8")).toBe("hi\n");
    rmSync(path.dirname(outside), { recursive: true, force: true });
  });

  it("a client that answers null approves nothing, and the model is not told the user said No", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    useDiffAuthorizingWriteFile();
    h.client.script.requestPermission = () => null;
    h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "new.txt", content: "x" } }] }, { text: "ok" });
    await h.prompt(await h.newSession(), "write");
    expect(() => readFileSync(path.join(h.root, "new.txt"))).toThrow();
    expect(toolResultsSent(h)[0]!.text).toMatch(/write_file: new\.txt \(\+1 -0\) was not approved: the user was not asked or gave no answer \(The editor gave no answer to the permission request\)/);
  });
});
