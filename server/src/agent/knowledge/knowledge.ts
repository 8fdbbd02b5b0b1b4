/**
 * The session's project knowledge, refreshed at the start of each turn: the rule files and
 * skills are read again, so a changed AGENTS.md or a new skill counts from the next turn on.
 */
import type { Config } from "../../config/schema.js";
import { userConfigDir } from "../../config/user-dirs.js";
import { loadProjectKnowledge, ruleFileLines } from "../../knowledge/project-knowledge.js";
import type { Session } from "../session.js";

/** Reads the rules and skills for the session's next turn; tells the user about files it could not use. */
export function refreshKnowledge(session: Session, config: Config, status?: (text: string) => void): void {
  const before = new Set([...(session.knowledge?.rules.problems ?? []), ...(session.knowledge?.skills.problems ?? [])]);
  session.knowledge = loadProjectKnowledge({
    root: session.root,
    userDir: userConfigDir(),
    ...(session.focusFile ? { focusFile: session.focusFile } : {}),
    budgetTokens: config.knowledge.rules_budget_tokens,
  });
  // Said once per new problem: a broken SKILL.md should not repeat on every turn.
  const fresh = [...session.knowledge.rules.problems, ...session.knowledge.skills.problems].filter((p) => !before.has(p));
  for (const p of fresh) status?.(p);
}

/**
 * The rule files loaded for the session and their token cost, one line each: the `/context`
 * contribution of project knowledge (and the body of `/rules`).
 */
export function knowledgeContextLines(session: Session, config: Config): string[] {
  if (!session.knowledge) refreshKnowledge(session, config);
  const lines = ruleFileLines(session.knowledge!.rules);
  return lines.length ? lines : ["No rule files (AGENTS.md, CLAUDE.md, .agent-lsp/rules/*.md) were found."];
}

/**
 * The rule files as one `/context` section (the shape of context-report.ts's ContextSection):
 * their total included tokens, part of the system prompt, one line per file with its cost.
 */
export function rulesContextSection(session: Session, config: Config): { title: string; tokens: number; partOf: string; lines: string[] } {
  if (!session.knowledge) refreshKnowledge(session, config);
  const rules = session.knowledge!.rules;
  const tokens = rules.files.reduce((sum, f) => sum + f.includedTokens, 0);
  return { title: `Rule files (${rules.files.length})`, tokens, partOf: "the system prompt", lines: knowledgeContextLines(session, config) };
}
