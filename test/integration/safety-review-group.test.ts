/**
 * One review per model message: when one message changes several files with several calls, the
 * client gets one permission request with every file, and each call gets its part of the answer
 * (all of it, its own files of a partial accept, or the refusal with the user's reason). Calls on
 * the same file still run one after another, each asked on its own.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { richCapabilities, safetyHarness, toolResultsSent, writeProjectFile } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const permissionRequests = () => h.client.requests.filter((r) => r.method === "agent/requestPermission").map((r) => r.params);
const edit = (path: string, from: string, to: string) => ({ name: "edit_file", input: { path, target_content: from, replacement_content: to } });
const reads = (...paths: string[]) => ({ toolCalls: paths.map((p) => ({ name: "read_file", input: { path: p } })) });

/** Two files read, then one message editing both. */
async function twoFileTurn(): Promise<{ a: string; b: string }> {
  h = await safetyHarness("ask", { capabilities: richCapabilities() });
  const a = writeProjectFile(h, "a.txt", "alpha\n");
  const b = writeProjectFile(h, "src/b.txt", "beta\n");
  h.fake.enqueue(reads("a.txt", "src/b.txt"), { toolCalls: [edit("a.txt", "alpha", "ALPHA"), edit("src/b.txt", "beta", "BETA")] }, { text: "done" });
  return { a, b };
}

describe("one review for the file changes of one message", () => {
  it("two calls on two files: one request with both files; allowed, both land", async () => {
    const { a, b } = await twoFileTurn();
    h.client.script.requestPermission = () => ({ optionId: "allow_once" });
    await h.prompt(await h.newSession(), "edit both");
    const requests = permissionRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0].files.map((f: { uri: string }) => f.uri)).toEqual([`file://${a}`, `file://${b}`]);
    expect(requests[0].summary).toMatch(/^2 changes in one review: edit_file: a\.txt .*; edit_file: src\/b\.txt/);
    expect(requests[0].diff).toContain("+ALPHA");
    expect(requests[0].diff).toContain("+BETA");
    expect(readFileSync(a, "utf8")).toBe("ALPHA\n");
    expect(readFileSync(b, "utf8")).toBe("BETA\n");
    expect(toolResultsSent(h).slice(-2).map((r) => r.isError)).toEqual([false, false]);
  });

  it("a partial accept: each call takes its own file's accepted text", async () => {
    const { a, b } = await twoFileTurn();
    // The user kept b's change and declined a's.
    h.client.script.requestPermission = () => ({ optionId: "allow_once", accepted: [{ uri: `file://${a}`, text: "alpha\n" }, { uri: `file://${b}`, text: "BETA\n" }] });
    await h.prompt(await h.newSession(), "edit both");
    expect(readFileSync(a, "utf8")).toBe("alpha\n");
    expect(readFileSync(b, "utf8")).toBe("BETA\n");
    const [ra, rb] = toolResultsSent(h).slice(-2);
    // The file the user took nothing from is declined, never "no changes".
    expect(ra!.isError).toBe(true);
    expect(ra!.text).toContain("The user declined edit_file: a.txt");
    expect(ra!.text).toContain("took none of it");
    expect(ra!.text).not.toContain("No changes");
    expect(rb!.isError).toBe(false);
    const ends = h.client.updates.filter((u) => u.update.kind === "tool_call_update" && (u.update.status === "failed" || u.update.status === "completed"));
    expect(ends.map((u) => [u.update.status, u.update.declined === true]).slice(-2)).toEqual([
      ["failed", true],
      ["completed", false],
    ]);
  });

  it("three files, one taken whole, one left, one taken with the user's words for the rest: the taken ones land, the words reach the model", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    const a = writeProjectFile(h, "a.txt", "alpha\n");
    const b = writeProjectFile(h, "b.txt", "beta\n");
    const c = writeProjectFile(h, "c.txt", "gamma\ndelta\n");
    h.fake.enqueue(
      reads("a.txt", "b.txt", "c.txt"),
      { toolCalls: [edit("a.txt", "alpha", "ALPHA"), edit("b.txt", "beta", "BETA"), edit("c.txt", "gamma\ndelta", "GAMMA\nDELTA")] },
      { text: "done" },
    );
    const reason = "keep b lowercase, and delta too";
    h.client.script.requestPermission = () => ({
      optionId: "allow_once",
      accepted: [
        { uri: `file://${a}`, text: "ALPHA\n" },
        { uri: `file://${b}`, text: "beta\n" },
        { uri: `file://${c}`, text: "GAMMA\ndelta\n" },
      ],
      reason,
    });
    await h.prompt(await h.newSession(), "edit all three");
    expect([a, b, c].map((f) => readFileSync(f, "utf8"))).toEqual(["ALPHA\n", "beta\n", "GAMMA\ndelta\n"]);
    const [ra, rb, rc] = toolResultsSent(h).slice(-3);
    expect(ra!.isError).toBe(false);
    expect(rb!.isError).toBe(true);
    expect(rb!.text).toContain(`The user said: ${JSON.stringify(reason)}`);
    expect(rc!.isError).toBe(false);
    expect(rc!.text).toContain("declined part of it");
    expect(rc!.text).toContain(`The user said about what they declined: ${JSON.stringify(reason)}`);
  });

  it("rejected with a reason: neither lands, and both calls carry the reason", async () => {
    const { a, b } = await twoFileTurn();
    h.client.script.requestPermission = () => ({ optionId: "reject", reason: "use uppercase only in b" });
    await h.prompt(await h.newSession(), "edit both");
    expect(readFileSync(a, "utf8")).toBe("alpha\n");
    expect(readFileSync(b, "utf8")).toBe("beta\n");
    const results = toolResultsSent(h).slice(-2);
    expect(results.every((r) => r.isError && r.text.includes("use uppercase only in b"))).toBe(true);
  });

  it("two calls on the same file run in turn, each asked on its own, the second over the first's result", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    const a = writeProjectFile(h, "a.txt", "one\ntwo\n");
    h.client.script.requestPermission = () => ({ optionId: "allow_once" });
    h.fake.enqueue(reads("a.txt"), { toolCalls: [edit("a.txt", "one", "ONE"), edit("a.txt", "ONE\ntwo", "ONE\nTWO")] }, { text: "done" });
    await h.prompt(await h.newSession(), "edit twice");
    expect(permissionRequests()).toHaveLength(2);
    expect(readFileSync(a, "utf8")).toBe("ONE\nTWO\n");
  });

  it("a call that fails before asking leaves the group: the other is asked alone, not held", async () => {
    h = await safetyHarness("ask", { capabilities: richCapabilities() });
    const a = writeProjectFile(h, "a.txt", "alpha\n");
    const b = writeProjectFile(h, "b.txt", "beta\n");
    h.client.script.requestPermission = () => ({ optionId: "allow_once" });
    h.fake.enqueue(reads("a.txt", "b.txt"), { toolCalls: [edit("a.txt", "not there", "x"), edit("b.txt", "beta", "BETA")] }, { text: "done" });
    await h.prompt(await h.newSession(), "edit both");
    const requests = permissionRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0].files.map((f: { uri: string }) => f.uri)).toEqual([`file://${b}`]);
    expect(readFileSync(a, "utf8")).toBe("alpha\n");
    expect(readFileSync(b, "utf8")).toBe("BETA\n");
    expect(toolResultsSent(h).slice(-2).map((r) => r.isError)).toEqual([true, false]);
  });
});
