/**
 * skill_run: runs a skill. By default its instructions run as a sub-turn of the session offered
 * only the skill's `allowed_tools` (a call of any other tool is refused), and the sub-turn's last
 * answer comes back as the result; a skill whose front matter says `run: main` has its
 * instructions returned instead, for the calling turn to follow.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import type { Skill } from "../../knowledge/skills.js";
import { defineTool, ToolError } from "../define-tool.js";
import { findSkill, requireApproved } from "./skill-find.js";
import { subTurnsFrom } from "./skill-services.js";

/** The skill_run tool. */
export const skillRunTool = defineTool({
  name: "skill_run",
  description:
    "Run a skill by name, with a task for it. The skill's instructions run as a sub-turn limited to the tools its SKILL.md allows, and its final answer is returned; " +
    "a skill marked `run: main` returns its instructions for you to follow here. A project skill runs once the user approved it.",
  input: lazySchema(() => z.object({
    name: z.string().min(1).describe("The skill's name."),
    task: z.string().optional().describe("What to do with it: the input the skill's instructions work on."),
  })),
  policyClass: "exec",
  category: "skill_admin",
  help: {
    whenToUse: "To run a skill's procedure with only the tools its SKILL.md allows, getting its final answer back; or, for a run: main skill, to load its instructions here.",
    examples: ['{"name": "release", "task": "prepare version 1.4.0"}', '{"name": "lint"}'],
    failureModes: [
      "An unknown name is an error listing the skills there are.",
      "A project skill the user did not approve is refused.",
      "Inside the sub-turn, a tool the skill does not allow is answered as one that does not exist.",
    ],
  },
  title: (i) => `Run skill ${i.name}`,
  async execute(i, ctx) {
    const skill = findSkill(ctx, i.name);
    await requireApproved(ctx, skill);
    if (skill.run === "main") return `Follow the instructions of the skill "${skill.name}" now${i.task ? ` for: ${i.task}` : ""}.\n\n${skillInstructions(skill)}`;
    const subTurns = subTurnsFrom(ctx.services);
    if (!subTurns) throw new ToolError("Skills cannot run as sub-turns in this server; read the instructions with skill_view and follow them.");
    const result = await subTurns.run(
      ctx.sessionId,
      {
        prompt: `${skillInstructions(skill)}\n\nTask: ${i.task ?? "(none given: do what the instructions describe)"}\n\nWhen done, answer with the result for the agent that ran this skill.`,
        ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
        excludedTools: ["skill_run"],
        label: `skill-${skill.name}`,
      },
      ctx.signal,
    );
    if (result.stopReason === "error") throw new ToolError(`The skill "${skill.name}" failed: ${result.error ?? "unknown error"}${result.text ? `\nIts last answer: ${result.text}` : ""}`);
    if (result.stopReason === "cancelled") throw new ToolError(`The skill "${skill.name}" was cancelled.`);
    const note = result.stopReason === "end_turn" ? "" : ` (it stopped: ${result.stopReason})`;
    return `Skill ${skill.name} finished${note}:\n${result.text || "(no answer)"}`;
  },
});

/** The instructions as a sub-turn or the main turn gets them: the body, with where its files are. */
export function skillInstructions(skill: Skill): string {
  const files = skill.files.length ? `\nIts files (read them with read_file): ${skill.files.map((f) => `${skill.file.slice(0, -"SKILL.md".length)}${f}`).join(", ")}` : "";
  return `<skill name="${skill.name}" file="${skill.file}">\n${skill.body.trimEnd()}\n</skill>${files}`;
}
