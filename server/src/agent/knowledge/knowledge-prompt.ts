/**
 * The project-knowledge sections of the system prompt: the rule files, each named with its path,
 * and the compact skill catalog, each within its budget (`[knowledge]` in the config).
 */
import type { LoadedRules } from "../../knowledge/rules.js";
import type { Skill } from "../../knowledge/skills.js";
import { estimateTokens } from "../../knowledge/text-file.js";

/** The rule files as prompt text; empty when there are none. */
export function rulesSection(rules: LoadedRules | undefined): string {
  if (!rules || (!rules.files.length && !rules.problems.length)) return "";
  const parts = [
    "Project and user instructions follow, one file each, in order of precedence (later and nearer files refine earlier ones). Follow them unless the user says otherwise.",
  ];
  for (const f of rules.files) {
    parts.push(`<rules file="${f.path}">`);
    if (f.text) parts.push(f.text.trimEnd());
    if (f.cut) parts.push(`[${f.cut}]`);
    parts.push("</rules>");
  }
  for (const p of rules.problems) parts.push(`[A rule file was not loaded: ${p}]`);
  return parts.join("\n");
}

/** The skill catalog (name and description per line) within `budgetTokens`; empty without skills. */
export function skillCatalogSection(skills: readonly Skill[], budgetTokens: number): string {
  if (!skills.length) return "";
  const head = "Skills (instruction packages for repeatable tasks): read one with skill_view, run it with skill_run. Project skills need the user's approval the first time they run.";
  const lines: string[] = [];
  let used = estimateTokens(head);
  for (const s of skills) {
    const line = `- ${s.name}: ${s.description.replace(/\s+/g, " ").slice(0, 300)}${s.source === "project" ? " (project)" : ""}`;
    if (used + estimateTokens(line) > budgetTokens) {
      lines.push(`- ... and ${skills.length - lines.length} more: skill_list names them all.`);
      break;
    }
    used += estimateTokens(line);
    lines.push(line);
  }
  return [head, ...lines].join("\n");
}
