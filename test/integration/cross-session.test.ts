/**
 * Two sessions on one project share one Workspace (issue 20, item 1). Reproduced before: session
 * A waits on the user's approval for a file while session B edits the same file; A's change then
 * landed over B's without an error. Now every change set is re-checked under the project's change
 * lock before it is written: re-based when it still applies, refused when it overlaps.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentHarness } from "../helpers/agent-setup.js";
import { richCapabilities, safetyHarness, toolResultsSent, writeProjectFile } from "./safety-helpers.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const edit = (target: string, replacement: string) => ({ name: "edit_file", input: { path: "a.txt", target_content: target, replacement_content: replacement } });
const read = { name: "read_file", input: { path: "a.txt" } };

/** Session A asks to edit; while its prompt is open, session B (full access) edits the same file. */
async function raceTwoSessions(aEdit: ReturnType<typeof edit>, bEdit: ReturnType<typeof edit>): Promise<void> {
  h = await safetyHarness("ask", { capabilities: richCapabilities() });
  writeProjectFile(h, "a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n");
  const a = await h.newSession();
  const b = await h.newSession({ mode: "full_access" });
  h.fake.enqueue(
    { toolCalls: [read] },
    { toolCalls: [aEdit] },
    { toolCalls: [read] },
    { toolCalls: [bEdit] },
    { text: "B done" },
    { text: "A done" },
  );
  h.client.script.requestPermission = async () => {
    // The user is still looking at A's diff when B's whole turn runs.
    await h.prompt(b, "edit it too");
    return { optionId: "allow_once" };
  };
  await h.prompt(a, "edit it");
}

describe("two sessions on one project", () => {
  it("a change computed before another session's overlapping edit is refused, and that edit is kept", async () => {
    await raceTwoSessions(edit("two", "TWO from A"), edit("two", "TWO from B"));
    expect(readFileSync(`${h.root}/a.txt`, "utf8")).toContain("TWO from B");
    expect(readFileSync(`${h.root}/a.txt`, "utf8")).not.toContain("from A");
    const results = toolResultsSent(h);
    const aResult = results.find((r) => r.text.includes("another session"));
    expect(aResult?.isError).toBe(true);
    expect(aResult?.text).toContain("a.txt changed on disk (by you or another session) after this change was made from it");
  });

  it("a change that still applies cleanly is re-based onto the other session's edit", async () => {
    await raceTwoSessions(edit("eight", "EIGHT from A"), edit("two", "TWO from B"));
    const text = readFileSync(`${h.root}/a.txt`, "utf8");
    expect(text).toContain("TWO from B");
    expect(text).toContain("EIGHT from A");
    expect(toolResultsSent(h).some((r) => r.text.includes("re-based onto its current text"))).toBe(true);
  });
});
