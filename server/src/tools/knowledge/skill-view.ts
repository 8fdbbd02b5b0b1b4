/** skill_view: one skill's SKILL.md (its front matter and instructions) and the files beside it. */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { findSkill, requireApproved } from "./skill-find.js";

/** The skill_view tool. */
export const skillViewTool = defineTool({
  name: "skill_view",
  // load_skill in other agents' tool layers: the same job, a skill's full instructions.
  aliases: ["load_skill"],
  description: "Show a skill's instructions (its SKILL.md) and the files beside it, which read_file can open. A project skill is shown once the user approved it.",
  input: lazySchema(() => z.object({ name: z.string().min(1).describe("The skill's name, as skill_list or the catalog gives it.") })),
  // A read: the trust question of a project skill is its one-time approval, not a prompt per view.
  policyClass: "read_only",
  category: "skill_admin",
  help: {
    whenToUse: "To read a skill's instructions and its files before running it, or to follow them yourself.",
    examples: ['{"name": "release"}'],
    failureModes: ["An unknown name is an error listing the skills there are.", "A project skill the user declined is refused; nothing of it is shown."],
  },
  title: (i) => `Skill ${i.name}`,
  async execute(i, ctx) {
    const skill = findSkill(ctx, i.name);
    await requireApproved(ctx, skill);
    const files = skill.files.length ? skill.files.map((f) => `  ${f}`).join("\n") : "  (none)";
    return [
      `Skill ${skill.name} (${skill.source}): ${skill.description}`,
      `Tools: ${skill.allowedTools?.join(", ") ?? "all of the session's"}; runs ${skill.run === "main" ? "in the main turn" : "as a sub-turn"}.`,
      `File: ${skill.file}`,
      `Files beside it:\n${files}`,
      "",
      skill.body,
    ].join("\n");
  },
});
