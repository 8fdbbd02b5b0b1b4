/** ask_user_question and make_plan: what they send to the editor and what the model reads back. */
import { describe, expect, it } from "vitest";
import { askUserQuestionTool } from "../../../server/src/tools/session/ask-user-question.js";
import { makePlanTool } from "../../../server/src/tools/session/make-plan.js";
import { policyTools } from "../../../server/src/tools/session/policy-tools.js";
import type { ToolContext } from "../../../server/src/tools/types.js";
import type { Workspace } from "../../../server/src/workspace/workspace.js";
import { PromptEditor } from "./setup.js";

function ctx(editor: PromptEditor, signal = new AbortController().signal): ToolContext {
  return {
    workspace: {} as Workspace,
    editor,
    sessionId: "s-1",
    toolCallId: "c-1",
    signal,
    outputBudget: 10_000,
    authorize: async () => ({ allowed: false, reason: "not used" }),
    progress: () => undefined,
    emit: (update) => void editor.updates.push(update),
    services: {},
  };
}

const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text).join("");

describe("ask_user_question", () => {
  it("asks the editor with the choices and returns the answer", async () => {
    const editor = new PromptEditor();
    editor.questionAnswer = "Postgres";
    const result = await askUserQuestionTool.execute({ question: "Which database?", choices: ["Postgres", "SQLite"] }, ctx(editor));
    expect(editor.questions).toEqual([{ sessionId: "s-1", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), question: "Which database?", choices: ["Postgres", "SQLite"], allowFreeText: true }]);
    expect(result).toMatchObject({ isError: false });
    expect(text(result)).toBe("The user answered: Postgres");
  });

  it("says so when no answer could be had, suggesting choices when there were none", async () => {
    const editor = new PromptEditor();
    const result = await askUserQuestionTool.execute({ question: "Name?" }, ctx(editor));
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("could not be asked or gave no answer");
    expect(text(result)).toContain("ask again with choices");
  });

  it("is a read-only, non-mutating tool that refuses an empty question", async () => {
    expect(askUserQuestionTool).toMatchObject({ policyClass: "read_only", isMutating: false });
    const result = await askUserQuestionTool.execute({ question: "" }, ctx(new PromptEditor()));
    expect(text(result)).toContain("Invalid input for ask_user_question");
  });
});

describe("make_plan", () => {
  it("sends the plan to the editor as a plan update, strings and entries alike", async () => {
    const editor = new PromptEditor();
    const result = await makePlanTool.execute({ plan: ["Read the config loader", { content: "Add the [policy] table", priority: "high" }] }, ctx(editor));
    expect(editor.updates).toEqual([
      {
        kind: "plan",
        entries: [
          { content: "Read the config loader", status: "pending" },
          { content: "Add the [policy] table", status: "pending", priority: "high" },
        ],
      },
    ]);
    expect(text(result)).toContain("Plan submitted to the user (2 steps)");
  });

  it("refuses an empty plan", async () => {
    const editor = new PromptEditor();
    const result = await makePlanTool.execute({ plan: [] }, ctx(editor));
    expect(result.isError).toBe(true);
    expect(editor.updates).toEqual([]);
  });

  it("ships with ask_user_question in policyTools", () => {
    expect(policyTools.map((t) => t.name)).toEqual(["ask_user_question", "make_plan"]);
  });
});
