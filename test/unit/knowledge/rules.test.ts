/**
 * Rule files at every level, in prompt order, within the budget: later files cut first with a
 * note; a file that is not UTF-8 is named and left out; the catalog of skills within its budget.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rulesSection, skillCatalogSection } from "../../../server/src/agent/knowledge/knowledge-prompt.js";
import { ruleFileLines } from "../../../server/src/knowledge/project-knowledge.js";
import { loadRules } from "../../../server/src/knowledge/rules.js";
import { discoverSkills, skillDigest } from "../../../server/src/knowledge/skills.js";

let base: string;
let root: string;
let userDir: string;
const put = (file: string, text: string | Buffer) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-lsp-rules-")));
  root = path.join(base, "project");
  userDir = path.join(base, "config", "agent-lsp");
  mkdirSync(root, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("loadRules", () => {
  it("reads user, project, the folders down to the focus file (nearest last) and .agent-lsp/rules, in that order", () => {
    put(path.join(userDir, "AGENTS.md"), "user rule");
    put(path.join(root, "AGENTS.md"), "project rule");
    put(path.join(root, "CLAUDE.md"), "ignored: AGENTS.md exists");
    put(path.join(root, "src", "AGENTS.md"), "src rule");
    put(path.join(root, "src", "deep", "AGENTS.md"), "deep rule");
    put(path.join(root, "other", "AGENTS.md"), "not on the way");
    put(path.join(root, ".agent-lsp", "rules", "b.md"), "rule b");
    put(path.join(root, ".agent-lsp", "rules", "a.md"), "rule a");
    const rules = loadRules({ root, userDir, focusFile: path.join(root, "src", "deep", "x.ts"), budgetTokens: 1000 });
    expect(rules.files.map((f) => [path.relative(base, f.path), f.source, f.text])).toEqual([
      ["config/agent-lsp/AGENTS.md", "user", "user rule"],
      ["project/AGENTS.md", "project", "project rule"],
      ["project/src/AGENTS.md", "folder", "src rule"],
      ["project/src/deep/AGENTS.md", "folder", "deep rule"],
      ["project/.agent-lsp/rules/a.md", "rules", "rule a"],
      ["project/.agent-lsp/rules/b.md", "rules", "rule b"],
    ]);
    expect(rules.problems).toEqual([]);
  });

  it("falls back to CLAUDE.md where there is no AGENTS.md", () => {
    put(path.join(root, "CLAUDE.md"), "claude rule");
    expect(loadRules({ root, userDir, budgetTokens: 100 }).files.map((f) => f.text)).toEqual(["claude rule"]);
  });

  it("cuts what goes over the budget, later files first, and says so", () => {
    put(path.join(root, "AGENTS.md"), "p".repeat(400)); // 100 tokens
    put(path.join(root, ".agent-lsp", "rules", "a.md"), "a".repeat(400));
    put(path.join(root, ".agent-lsp", "rules", "b.md"), "b".repeat(400));
    const rules = loadRules({ root, userDir, budgetTokens: 150 });
    expect(rules.files.map((f) => [f.text.length, f.includedTokens, f.tokens])).toEqual([
      [400, 100, 100],
      [200, 50, 100],
      [0, 0, 100],
    ]);
    expect(rules.files[1]!.cut).toContain("cut after 50 of 100 tokens");
    expect(rules.files[2]!.cut).toContain("left out (100 tokens)");
    const section = rulesSection(rules);
    expect(section).toContain(`<rules file="${path.join(root, "AGENTS.md")}">`);
    expect(section).toContain("[cut after 50 of 100 tokens: the rules budget (knowledge.rules_budget_tokens) is spent");
    expect(ruleFileLines(rules)).toEqual([
      `${path.join(root, "AGENTS.md")} (project): 100 tokens`,
      `${path.join(root, ".agent-lsp", "rules", "a.md")} (rules): 50 of 100 tokens (cut for the budget)`,
      `${path.join(root, ".agent-lsp", "rules", "b.md")} (rules): 0 of 100 tokens (cut for the budget)`,
    ]);
  });

  it("names a rule file that is not UTF-8 and leaves only it out", () => {
    put(path.join(root, "AGENTS.md"), Buffer.from([0x66, 0xff, 0xfe, 0x00, 0x80]));
    put(path.join(root, ".agent-lsp", "rules", "ok.md"), "fine");
    const rules = loadRules({ root, userDir, budgetTokens: 100 });
    expect(rules.files.map((f) => f.text)).toEqual(["fine"]);
    expect(rules.problems).toEqual([`${path.join(root, "AGENTS.md")} is not UTF-8 text; it was left out.`]);
    expect(rulesSection(rules)).toContain("[A rule file was not loaded: ");
  });
});

describe("skills", () => {
  const skill = (dir: string, front: string, body = "Do the thing.") => put(path.join(dir, "SKILL.md"), `---\n${front}\n---\n${body}\n`);

  it("are found in the project's two folders and the user's, each with its files; a bad SKILL.md is named, the rest load", () => {
    skill(path.join(root, ".agent-lsp", "skills", "release"), "name: release\ndescription: Cut a release\nallowed_tools: [read_file, git_read]");
    put(path.join(root, ".agent-lsp", "skills", "release", "scripts", "check.sh"), "echo");
    skill(path.join(root, ".agents", "skills", "review"), "name: review\ndescription: Review a change\nallowed_tools:\n  - read_file\n  - search_files\nrun: main");
    skill(path.join(userDir, "skills", "mine"), "name: mine\ndescription: 'My own'");
    put(path.join(root, ".agents", "skills", "broken", "SKILL.md"), "no front matter here");
    skill(path.join(userDir, "skills", "release-again"), "name: release\ndescription: clash");
    const { skills, problems } = discoverSkills(root, userDir);
    expect(skills.map((s) => [s.name, s.source, s.allowedTools, s.run, s.files])).toEqual([
      ["release", "project", ["read_file", "git_read"], "subturn", ["scripts/check.sh"]],
      ["review", "project", ["read_file", "search_files"], "main", []],
      ["mine", "user", undefined, "subturn", []],
    ]);
    expect(problems).toEqual([
      `${path.join(root, ".agents", "skills", "broken", "SKILL.md")}: it has no front matter (a first line \`---\`, then \`name:\` and \`description:\`, then \`---\`); the skill was not loaded.`,
      `${path.join(userDir, "skills", "release-again", "SKILL.md")}: a skill named "release" was already found (${path.join(root, ".agent-lsp", "skills", "release", "SKILL.md")}); this one is ignored.`,
    ]);
    expect(skills[0]!.body).toBe("Do the thing.\n");
  });

  it("have a digest that changes with SKILL.md and with any file beside it, so an approval covers exactly them", () => {
    const dir = path.join(root, ".agents", "skills", "x");
    skill(dir, "name: x\ndescription: d");
    put(path.join(dir, "run.sh"), "echo safe");
    const digest = () => skillDigest(discoverSkills(root, userDir).skills[0]!);
    const first = digest();
    expect(digest()).toBe(first);
    put(path.join(dir, "run.sh"), "echo changed");
    const second = digest();
    expect(second).not.toBe(first);
    skill(dir, "name: x\ndescription: d2");
    expect(digest()).not.toBe(second);
  });

  it("need a name and a description", () => {
    skill(path.join(root, ".agents", "skills", "x"), "description: no name");
    skill(path.join(root, ".agents", "skills", "y"), "name: y");
    expect(discoverSkills(root, userDir).problems.map((p) => p.replace(root, "ROOT"))).toEqual([
      "ROOT/.agents/skills/x/SKILL.md: front matter needs `name:` (letters, digits, \".\", \"_\" or \"-\"); the skill was not loaded.",
      "ROOT/.agents/skills/y/SKILL.md: front matter needs `description:`; the skill was not loaded.",
    ]);
  });

  it("catalog stays within its budget and says how many were left out", () => {
    for (const n of ["a", "b", "c", "d"]) skill(path.join(userDir, "skills", n), `name: ${n}\ndescription: ${"word ".repeat(20)}`);
    const { skills } = discoverSkills(root, userDir);
    const full = skillCatalogSection(skills, 10_000);
    expect(full.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(4);
    const small = skillCatalogSection(skills, 80);
    expect(small).toContain("- a: word");
    expect(small).toMatch(/- \.\.\. and \d more: skill_list names them all\./);
    expect(skillCatalogSection([], 100)).toBe("");
  });
});
