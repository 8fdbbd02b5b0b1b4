/**
 * ask_user_question: the model asks the user one question (optionally with choices) and gets the
 * answer as its result. Rich clients (agent/askUser) also take free text; others show the
 * choices as buttons. When no answer can be had the result says so, so the model can go on.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { newRequestId } from "../../editor/session-ui.js";
import { defineTool, errorResult } from "../define-tool.js";

const input = lazySchema(() => z.object({
  question: z.string().min(1).describe("The question, in one or two sentences."),
  choices: z
    .array(z.string().min(1))
    .max(10)
    .optional()
    .describe("Answers to offer. Give choices whenever you can: some editors can only show buttons."),
}));

/** The ask_user_question tool. */
export const askUserQuestionTool = defineTool({
  name: "ask_user_question",
  description:
    "Ask the user one question and wait for the answer: to choose between approaches, confirm an assumption, " +
    "or get information only they have. Offer choices when the answer is one of a few options. " +
    "Do not use it for permission to run tools; the editor asks about those itself.",
  input,
  policyClass: "read_only",
  callKind: "other",
  category: "interaction",
  help: {
    whenToUse: "When only the user can decide (an approach, a name, missing information). Not for permission to run tools: the editor asks about those.",
    examples: ['{"question": "Which database should the cache use?", "choices": ["SQLite", "Redis"]}'],
    failureModes: ["The prompt is dismissed or the editor cannot show it: the result says so; decide yourself and say what you assumed, or ask again with choices."],
  },
  isMutating: false,
  title: (i) => `Ask: ${i.question.length > 60 ? `${i.question.slice(0, 57)}...` : i.question}`,
  async execute(i, ctx) {
    const answer = await ctx.editor.askUser(
      { sessionId: ctx.sessionId, requestId: newRequestId(), question: i.question, ...(i.choices?.length ? { choices: i.choices } : {}), allowFreeText: true },
      ctx.signal,
    );
    if (ctx.signal.aborted) return errorResult("Cancelled before the user answered.");
    if (answer === undefined) {
      const hint = i.choices?.length
        ? ""
        : " This editor may only answer questions that offer choices: ask again with choices, or decide yourself and say what you assumed.";
      return errorResult(`The user could not be asked or gave no answer (the prompt was dismissed, timed out, or the editor cannot show it).${hint}`);
    }
    return `The user answered: ${answer}`;
  },
});
