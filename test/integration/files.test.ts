/**
 * The Workspace through the whole server in-process: a model's file tools via agent/prompt, edits
 * to open documents as workspace/applyEdit against a scripted client (that applies, refuses, or
 * says applied and skips), all-or-nothing patches, and the user's /checkpoints, /restore and
 * /undo through agent/command.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";

let h: AgentHarness;
beforeEach(async () => {
  h = await startAgentHarness({ options: { tools: { provider_native: false } } });
});
afterEach(async () => {
  await h.dispose();
});

const at = (rel: string) => path.join(h.root, rel);
const uriOf = (rel: string) => pathToFileURL(at(rel)).href;
const command = (sessionId: string, name: string, args: string[] = []) =>
  h.client.connection.sendRequest("agent/command", { sessionId, command: name, args }) as Promise<{ message: string }>;

/** The text of the tool results the model got back in request `n`. */
function toolResultsIn(n: number): string[] {
  const messages = h.fake.requests[n]!.body.messages as any[];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("")));
}

/** Has the model make `calls` (one turn), then end; returns the tool results it got. */
async function modelCalls(sessionId: string, calls: { name: string; input: unknown }[]): Promise<string[]> {
  const before = h.fake.requests.length;
  h.fake.enqueue({ toolCalls: calls }, { text: "done" });
  await h.prompt(sessionId, "go");
  return toolResultsIn(before + 1).slice(-calls.length);
}

describe("file tools through the server", () => {
  it("streams each call with its kind and location, and its change file by file", async () => {
    writeFileSync(at("a.ts"), "one\ntwo\n");
    const id = await h.newSession();
    await modelCalls(id, [
      { name: "read_file", input: { path: "a.ts", start_line: 2, line_count: 1 } },
      { name: "apply_patch", input: { patch: "*** Begin Patch\n*** Update File: a.ts\n@@\n one\n-two\n+TWO\n*** Add File: b.ts\n+new\n*** End Patch" } },
    ]);
    const [read, patch] = h.client.updatesOf("tool_call");
    expect(read).toMatchObject({ name: "read_file", toolKind: "read", locations: [{ path: "a.ts", line: 2, endLine: 2 }] });
    expect(patch).toMatchObject({ name: "apply_patch", toolKind: "edit" });
    const done = h.client.updatesOf("tool_call_update").find((u) => u.id === patch.id && u.status === "completed");
    expect(done.files.map((f: { path: string }) => f.path)).toEqual(["a.ts", "b.ts"]);
    expect(done.files[0].diff).toContain("+TWO");
    expect(done.files.map((f: { diff: string }) => f.diff).join("")).toBe(done.diff);
  });

  it("edits an open document's unsaved text through applyEdit and leaves the disk alone", async () => {
    writeFileSync(at("a.ts"), "const saved = 1;\n");
    h.client.open(uriOf("a.ts"), "const saved = 1;\nconst unsaved = 2;\n", "typescript");
    const id = await h.newSession();
    const [result] = await modelCalls(id, [{ name: "edit_file", input: { path: "a.ts", target_content: "unsaved = 2", replacement_content: "unsaved = 3" } }]);
    expect(result).toContain("Changed in the editor's buffer (not saved to disk yet): a.ts.");
    expect(h.client.text(uriOf("a.ts"))).toBe("const saved = 1;\nconst unsaved = 3;\n");
    expect(readFileSync(at("a.ts"), "utf8")).toBe("const saved = 1;\n");
    expect(h.client.requests.filter((r) => r.method === "workspace/applyEdit")).toHaveLength(1);
    expect(h.fake.violations).toEqual([]);
  });

  it("tells the model when the client refuses the edit, and changes nothing", async () => {
    writeFileSync(at("a.ts"), "disk\n");
    writeFileSync(at("closed.ts"), "closed\n");
    h.client.open(uriOf("a.ts"), "buffer\n");
    h.client.script.applyEdit = "refuse";
    const id = await h.newSession();
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-buffer\n+changed\n*** Update File: closed.ts\n@@\n-closed\n+changed\n*** End Patch";
    const [result] = await modelCalls(id, [{ name: "apply_patch", input: { patch } }]);
    expect(result).toContain("The editor did not apply the change");
    expect(result).toContain("Nothing was changed.");
    expect(h.client.text(uriOf("a.ts"))).toBe("buffer\n");
    expect(readFileSync(at("a.ts"), "utf8")).toBe("disk\n");
    expect(readFileSync(at("closed.ts"), "utf8")).toBe("closed\n");
  });

  it("detects a client that answers applied but reports the buffer without the edit", async () => {
    writeFileSync(at("closed.ts"), "closed\n");
    h.client.open(uriOf("a.ts"), "buffer\n");
    h.client.script.applyEdit = "lie";
    const id = await h.newSession();
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-buffer\n+changed\n*** Update File: closed.ts\n@@\n-closed\n+changed\n*** End Patch";
    const running = modelCalls(id, [{ name: "apply_patch", input: { patch } }]);
    // The editor's next report (say, the user typed) comes while the server waits for it.
    await waitFor(() => h.client.requests.some((r) => r.method === "workspace/applyEdit"));
    h.client.change(uriOf("a.ts"), "buffer\n");
    const [result] = await running;
    expect(result).toContain("The editor answered that it applied the change, but a.ts did not change");
    expect(readFileSync(at("closed.ts"), "utf8")).toBe("closed\n");
    expect(h.client.updatesOf("tool_call_update").at(-1)).toMatchObject({ status: "failed" });
  });

  it("changes neither file of a two-file patch whose second file does not match", async () => {
    writeFileSync(at("one.txt"), "1\n");
    writeFileSync(at("two.txt"), "2\n");
    const id = await h.newSession();
    const patch = "--- a/one.txt\n+++ b/one.txt\n@@ -1 +1 @@\n-1\n+one\n--- a/two.txt\n+++ b/two.txt\n@@ -1 +1 @@\n-not there\n+two\n";
    const [result] = await modelCalls(id, [{ name: "apply_patch", input: { patch } }]);
    expect(result).toContain("two.txt");
    expect(result).toContain("Nothing was changed");
    expect(readFileSync(at("one.txt"), "utf8")).toBe("1\n");
    expect(readFileSync(at("two.txt"), "utf8")).toBe("2\n");
  });

  it("refuses to write through a symlink that leads out of the project", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "agent-lsp-outside-"));
    try {
      writeFileSync(path.join(outside, "target.txt"), "outside\n");
      symlinkSync(outside, at("link"));
      const id = await h.newSession();
      const [result] = await modelCalls(id, [{ name: "write_file", input: { path: "link/new.txt", content: "x" } }]);
      expect(result).toMatch(/link\/new.txt leads through a symbolic link to .* outside the project/);
      expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("file operations on open documents", () => {
  it("deletes and moves open documents through the editor's resource operations", async () => {
    writeFileSync(at("gone.txt"), "bye\n");
    writeFileSync(at("old.txt"), "moving\n");
    h.client.open(uriOf("gone.txt"), "bye\n");
    h.client.open(uriOf("old.txt"), "moving\n");
    const id = await h.newSession();
    const [del] = await modelCalls(id, [{ name: "delete_file", input: { path: "gone.txt" } }]);
    expect(del).not.toMatch(/error|refused/i);
    expect(existsSync(at("gone.txt"))).toBe(false);
    const patch = "*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n-moving\n+moved\n*** End Patch";
    const [moved] = await modelCalls(id, [{ name: "apply_patch", input: { patch } }]);
    expect(moved).toContain("new.txt");
    expect(existsSync(at("old.txt"))).toBe(false);
    const ops = h.client.requests
      .filter((r) => r.method === "workspace/applyEdit")
      .flatMap((r) => r.params.edit.documentChanges.filter((c: any) => c.kind).map((c: any) => c.kind));
    expect(ops).toEqual(expect.arrayContaining(["delete", "rename"]));
    expect(h.client.text(uriOf("new.txt"))).toBe("moved\n");
  });
});

describe("/checkpoints, /restore and /undo through agent/command", () => {
  it("restores a created file (deleted) and an edited one, and undoes the restore", async () => {
    writeFileSync(at("kept.txt"), "v1\n");
    const id = await h.newSession();
    await modelCalls(id, [{ name: "write_file", input: { path: "created.txt", content: "new file\n" } }]);
    await modelCalls(id, [{ name: "edit_file", input: { path: "kept.txt", target_content: "v1", replacement_content: "v2" } }]);
    expect(readFileSync(at("kept.txt"), "utf8")).toBe("v2\n");

    const list = (await command(id, "checkpoints")).message;
    const ids = [...list.matchAll(/^(\S+) {2}.* {2}(write_file|edit_file) /gm)].map((m) => [m[1]!, m[2]!]);
    expect(ids.map(([, tool]) => tool)).toEqual(["edit_file", "write_file"]);
    const first = ids[1]![0];

    const restored = (await command(id, "restore", [first])).message;
    expect(restored).toContain(`Restored the state before checkpoint ${first} (2 change sets reverted)`);
    expect(existsSync(at("created.txt"))).toBe(false);
    expect(readFileSync(at("kept.txt"), "utf8")).toBe("v1\n");

    const undone = (await command(id, "undo")).message;
    expect(undone).toMatch(/^Undid \/restore /);
    expect(readFileSync(at("created.txt"), "utf8")).toBe("new file\n");
    expect(readFileSync(at("kept.txt"), "utf8")).toBe("v2\n");
  });

  it("/undo reverts an edit of an open document through applyEdit", async () => {
    writeFileSync(at("o.ts"), "disk\n");
    h.client.open(uriOf("o.ts"), "buffer one\n");
    const id = await h.newSession();
    await modelCalls(id, [{ name: "edit_file", input: { path: "o.ts", target_content: "one", replacement_content: "two" } }]);
    expect(h.client.text(uriOf("o.ts"))).toBe("buffer two\n");
    const undone = (await command(id, "undo")).message;
    expect(undone).toContain("M o.ts");
    expect(h.client.text(uriOf("o.ts"))).toBe("buffer one\n");
    expect(readFileSync(at("o.ts"), "utf8")).toBe("disk\n");
    expect(h.client.requests.filter((r) => r.method === "workspace/applyEdit")).toHaveLength(2);
    expect((await command(id, "undo")).message).toBe("Nothing to undo in this session.");
  });
});
