/** ApprovedOnce: what a project brings is used once approved; how a refusal came about. */
import { describe, expect, it } from "vitest";
import type { Editor } from "../../../server/src/editor/editor.js";
import { ApprovedOnce } from "../../../server/src/policy/approved-once.js";
import type { ApprovalBook } from "../../../server/src/policy/rule-book.js";
import { SkillApproval } from "../../../server/src/policy/skill-approval.js";

function book(): ApprovalBook & { saved: unknown[] } {
  const saved: unknown[] = [];
  return { saved, serverApproved: async () => false, approveServer: async (_root: string, rule: unknown) => void saved.push(rule) } as unknown as ApprovalBook & { saved: unknown[] };
}

function editor(canAsk: boolean | undefined, answer: string | undefined): Editor & { asked: number } {
  const ui = { asked: 0, askUser: async () => (ui.asked++, answer), ...(canAsk === undefined ? {} : { canAsk }) };
  return ui as unknown as Editor & { asked: number };
}

const rule = { kind: "mcp_server" as const, name: "proj", command: "node server.js" };
const prompt = { sessionId: "s", question: "Start it?", yes: "Start it", no: "Don't start it" };

describe("ApprovedOnce", () => {
  it.each([
    { name: "an editor that asks, answered Yes", canAsk: undefined, answer: "Start it", outcome: { approved: true }, asked: 1 },
    { name: "answered No", canAsk: true, answer: "Don't start it", outcome: { approved: false, asked: true, answered: true }, asked: 1 },
    { name: "a prompt nobody answered", canAsk: true, answer: undefined, outcome: { approved: false, asked: true, answered: false }, asked: 1 },
    { name: "nobody to ask: no prompt is shown at all", canAsk: false, answer: "Start it", outcome: { approved: false, asked: false, answered: false }, asked: 0 },
  ])("$name", async ({ canAsk, answer, outcome, asked }) => {
    const ui = editor(canAsk, answer);
    const b = book();
    expect(await new ApprovedOnce(ui, b).ask(rule, prompt, "/p", new AbortController().signal)).toEqual(outcome);
    expect(ui.asked).toBe(asked);
    expect(b.saved).toHaveLength(outcome.approved ? 1 : 0);
  });

  it("a skill refused with nobody to ask says so, not that a prompt got no answer", async () => {
    const skill = { name: "lint", description: "Lint", run: "subturn", source: "project", file: "/p/.agent-lsp/skills/lint/SKILL.md", body: "Run it.", text: "---\nname: lint\n---\nRun it.", files: [] };
    const refusal = await new SkillApproval(editor(false, undefined), book()).approve(skill as never, { sessionId: "s", root: "/p" }, new AbortController().signal);
    expect(refusal).toContain("was not approved (there was no terminal or editor to ask the user in)");
    expect(refusal).not.toContain("got no answer");
  });
});
