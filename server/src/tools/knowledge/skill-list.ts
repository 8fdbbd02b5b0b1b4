/** skill_list: every skill of the project and the user, with its description and tools. */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { sessionSkills } from "./skill-find.js";

/** The skill_list tool. */
export const skillListTool = defineTool({
  name: "skill_list",
  description: "List the skills (instruction packages) of the project and the user: name, description, where it is, and the tools it may use. Read one with skill_view, run it with skill_run.",
  input: lazySchema(() => z.object({})),
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To see which skills exist beyond the catalog in the system prompt, where they are, and which SKILL.md files are broken.",
    examples: ["{}"],
    failureModes: ["A SKILL.md without front matter, name or description is listed under 'Not loaded' with the reason."],
  },
  async execute(_i, ctx) {
    const { skills, problems } = sessionSkills(ctx);
    const lines = skills.map(
      (s) =>
        `- ${s.name} (${s.source}${s.source === "project" ? ", needs the user's approval once" : ""}): ${s.description}\n  ${s.file}; tools: ${s.allowedTools?.join(", ") ?? "all of the session's"}${s.run === "main" ? "; runs in the main turn" : ""}`,
    );
    if (!lines.length) lines.push("No skills. Skills live in .agent-lsp/skills/NAME/SKILL.md or .agents/skills/NAME/SKILL.md in the project, and in ~/.config/agent-lsp/skills/NAME/SKILL.md.");
    if (problems.length) lines.push("", "Not loaded:", ...problems);
    return lines.join("\n");
  },
});
