/**
 * The review group: questions of several calls go out as one once every member has asked or
 * left, in the model's order; each call gets its own files of a partial accept.
 */
import { describe, expect, it } from "vitest";
import type { PermissionAnswer } from "../../../server/src/editor/session-ui.js";
import type { Proposal } from "../../../server/src/policy/approver.js";
import { merged, partFor, ReviewGroup } from "../../../server/src/policy/review-group.js";

function proposal(id: string, uri: string): Proposal {
  return {
    session: { sessionId: "s", mode: "ask", root: "/p" },
    call: { id, name: "edit_file", title: `Edit ${uri}`, input: {} },
    summary: `edit_file: ${uri}`,
    details: `Diff of ${uri}`,
    scopes: [],
    diff: `--- a/${uri}\n+++ b/${uri}\n`,
    files: [{ uri: `file:///p/${uri}`, oldText: "a\n", newText: "b\n" }],
  };
}

/** A group whose sends are recorded and answered with `answer`. */
function group(ids: string[], answer: PermissionAnswer = { optionId: "allow_once" }) {
  const sent: Proposal[] = [];
  const review = new ReviewGroup(ids);
  const send = async (p: Proposal) => (sent.push(p), answer);
  return { review, sent, send };
}

describe("ReviewGroup", () => {
  it("waits for every member, then sends one request in the model's order", async () => {
    const { review, sent, send } = group(["c1", "c2", "c3"]);
    const second = review.ask(proposal("c2", "b.txt"), send);
    const first = review.ask(proposal("c1", "a.txt"), send);
    await Promise.resolve();
    expect(sent).toEqual([]);
    review.leave("c3");
    expect(await first).toEqual({ optionId: "allow_once" });
    expect(await second).toEqual({ optionId: "allow_once" });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.files!.map((f) => f.uri)).toEqual(["file:///p/a.txt", "file:///p/b.txt"]);
    expect(sent[0]!.summary).toBe("2 changes in one review: edit_file: a.txt; edit_file: b.txt");
  });

  it("one member left asking: its own request, unchanged", async () => {
    const { review, sent, send } = group(["c1", "c2"]);
    review.leave("c1");
    const only = proposal("c2", "b.txt");
    await review.ask(only, send);
    expect(sent).toEqual([only]);
  });

  it("a leave of a member that already asked changes nothing", async () => {
    const { review, sent, send } = group(["c1", "c2"]);
    const a = review.ask(proposal("c1", "a.txt"), send);
    review.leave("c1");
    await Promise.resolve();
    expect(sent).toEqual([]);
    review.leave("c2");
    await a;
    expect(sent).toHaveLength(1);
  });
});

describe("the parts of an answer", () => {
  const answer: PermissionAnswer = { optionId: "allow_once", accepted: [{ uri: "file:///p/a.txt", text: "a\n" }, { uri: "file:///p/b.txt", text: "B\n" }] };
  it.each([
    ["a.txt", [{ uri: "file:///p/a.txt", text: "a\n" }]],
    ["b.txt", [{ uri: "file:///p/b.txt", text: "B\n" }]],
    ["c.txt", []],
  ])("%s gets its own accepted texts", (file, expected) => {
    expect(partFor(answer, proposal("c", file)).accepted).toEqual(expected);
  });

  it("a refusal and its reason reach every part as they are", () => {
    const no: PermissionAnswer = { optionId: "reject", reason: "not like this" };
    expect(partFor(no, proposal("c", "a.txt"))).toBe(no);
  });

  it("the merged request: every diff, the scopes of all, the first call's id", () => {
    const m = merged([proposal("c1", "a.txt"), proposal("c2", "b.txt")]);
    expect(m.call.id).toBe("c1");
    expect(m.call.title).toBe("2 changes: Edit a.txt; Edit b.txt");
    expect(m.diff).toBe("--- a/a.txt\n+++ b/a.txt\n--- a/b.txt\n+++ b/b.txt\n");
  });
});
