/** The tools of the safety layer, for the server to register together. */
import { askUserQuestionTool } from "./ask-user-question.js";
import { makePlanTool } from "./make-plan.js";
import type { Capability } from "../types.js";

/** ask_user_question and make_plan. */
export const policyTools: Capability[] = [askUserQuestionTool, makePlanTool];
