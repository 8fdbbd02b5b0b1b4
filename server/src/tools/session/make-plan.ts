/**
 * make_plan: in plan mode the model submits its plan, which the editor shows as a checklist
 * (a `plan` update). Nothing is changed; the user reviews the plan and switches modes to act.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import type { PlanEntry } from "../../protocol/updates.js";
import { defineTool } from "../define-tool.js";

const entry = z.union([
  z.string().min(1),
  z.object({
    content: z.string().min(1).describe("One step, as an instruction."),
    priority: z.enum(["high", "medium", "low"]).optional(),
  }),
]);

const input = lazySchema(() => z.object({
  plan: z.array(entry).min(1).max(50).describe("The steps, in order. Each a string, or {content, priority}."),
}));

/** The make_plan tool (offered in plan mode only). */
export const makePlanTool = defineTool({
  name: "make_plan",
  description:
    "Submit your plan for the user's review: the ordered steps you would take, each one concrete " +
    "(which files, what change, how to verify). The editor shows it as a checklist. Use it once you " +
    "have investigated enough; the user approves it by switching out of plan mode.",
  input,
  policyClass: "read_only",
  callKind: "think",
  category: "planning",
  help: {
    whenToUse: "In plan mode, once you have investigated: submit the steps you would take for the user to review.",
    examples: ['{"plan": ["Add the key to config/schema.ts", {"content": "Read it in the runner", "priority": "high"}, "Run the config tests"]}'],
    failureModes: ["Offered in plan mode only."],
  },
  isMutating: false,
  title: (i) => `Plan (${i.plan.length} step${i.plan.length === 1 ? "" : "s"})`,
  async execute(i, ctx) {
    const entries: PlanEntry[] = i.plan.map((e) =>
      typeof e === "string"
        ? { content: e, status: "pending" }
        : { content: e.content, status: "pending", ...(e.priority ? { priority: e.priority } : {}) },
    );
    ctx.emit({ kind: "plan", entries });
    return `Plan submitted to the user (${entries.length} step${entries.length === 1 ? "" : "s"}). Stop here and wait: the user reviews it and switches out of plan mode to have you carry it out.`;
  },
});
