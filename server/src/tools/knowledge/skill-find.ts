/**
 * Finding the session's skills for the skill tools: discovered fresh on each call (a new or
 * edited skill counts at once), and a skill named that does not exist is an error listing those
 * that do.
 */
import { userConfigDir } from "../../config/user-dirs.js";
import { discoverSkills, type LoadedSkills, type Skill } from "../../knowledge/skills.js";
import { ToolError } from "../define-tool.js";
import { skillApproverFrom } from "./skill-services.js";
import type { ToolContext } from "../types.js";

/** Every skill of the project and the user, with the SKILL.md files that could not be used. */
export function sessionSkills(ctx: Pick<ToolContext, "workspace">): LoadedSkills {
  return discoverSkills(ctx.workspace.root, userConfigDir());
}

/** The skill called `name`; a ToolError naming the known ones (and any broken SKILL.md) otherwise. */
export function findSkill(ctx: Pick<ToolContext, "workspace">, name: string): Skill {
  const { skills, problems } = sessionSkills(ctx);
  const skill = skills.find((s) => s.name === name);
  if (skill) return skill;
  const known = skills.length ? `Skills: ${skills.map((s) => s.name).join(", ")}.` : "There are no skills.";
  const broken = problems.length ? `\nNot loaded:\n${problems.join("\n")}` : "";
  throw new ToolError(`No skill named "${name}". ${known}${broken}`);
}

/** Throws a ToolError when a project skill is not approved by the user (asking once). */
export async function requireApproved(ctx: ToolContext, skill: Skill): Promise<void> {
  if (skill.source === "user") return;
  const approver = skillApproverFrom(ctx.services);
  if (!approver) throw new ToolError(`The project skill "${skill.name}" needs the user's approval, and this server cannot ask for it.`);
  const refusal = await approver.approve(skill, { sessionId: ctx.sessionId, root: ctx.workspace.root }, ctx.signal);
  if (refusal) throw new ToolError(refusal);
}
