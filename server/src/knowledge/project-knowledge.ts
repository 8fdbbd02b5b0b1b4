/**
 * What a session knows of its project at the start of a turn: the rule files and the skills,
 * read fresh each turn (cheap: a handful of small files) so edits count at the next turn.
 */
import { loadRules, type LoadedRules, type RulePlaces } from "./rules.js";
import { discoverSkills, type LoadedSkills } from "./skills.js";

/** The rules and skills of one turn. */
export interface ProjectKnowledge {
  rules: LoadedRules;
  skills: LoadedSkills;
}

/** Reads the rule files and skills of a project. */
export function loadProjectKnowledge(places: RulePlaces): ProjectKnowledge {
  return { rules: loadRules(places), skills: discoverSkills(places.root, places.userDir) };
}

/** One line per loaded rule file with its token cost, and one per problem: for `/context` and `/rules`. */
export function ruleFileLines(rules: LoadedRules): string[] {
  const lines = rules.files.map((f) => {
    const cost = f.includedTokens === f.tokens ? `${f.tokens} tokens` : `${f.includedTokens} of ${f.tokens} tokens (cut for the budget)`;
    return `${f.path} (${f.source}): ${cost}`;
  });
  return [...lines, ...rules.problems.map((p) => `not loaded: ${p}`)];
}
