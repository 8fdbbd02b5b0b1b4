/** What project knowledge tells /context and /rules: each rule file loaded with its token cost. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { knowledgeContextLines, rulesContextSection } from "../../../server/src/agent/knowledge/knowledge.js";
import { Session } from "../../../server/src/agent/session.js";
import { DEFAULT_CONFIG } from "../../../server/src/config/schema.js";
import { isolateUserDirs } from "../../helpers/user-dirs.js";
import { makeProject, type Project } from "../workspace/setup.js";

// The user's own AGENTS.md must not count here.
isolateUserDirs("knowledge-context-home-");

let project: Project;
afterEach(() => project.dispose());

function session(): Session {
  return new Session("s1", project.ws, { append: () => 1, settings: () => undefined } as never, { mode: "ask", model: "anthropic/x" });
}

describe("rules in /context", () => {
  it("lists each rule file with its cost, as a section of the system prompt", () => {
    project = makeProject();
    writeFileSync(path.join(project.root, "AGENTS.md"), "x".repeat(40));
    mkdirSync(path.join(project.root, ".agent-lsp", "rules"), { recursive: true });
    writeFileSync(path.join(project.root, ".agent-lsp", "rules", "style.md"), "y".repeat(8));
    const s = session();
    expect(rulesContextSection(s, DEFAULT_CONFIG)).toEqual({
      title: "Rule files (2)",
      tokens: 12,
      partOf: "the system prompt",
      lines: [`${path.join(project.root, "AGENTS.md")} (project): 10 tokens`, `${path.join(project.root, ".agent-lsp", "rules", "style.md")} (rules): 2 tokens`],
    });
  });

  it("says when there are none", () => {
    project = makeProject();
    expect(knowledgeContextLines(session(), DEFAULT_CONFIG)).toEqual(["No rule files (AGENTS.md, CLAUDE.md, .agent-lsp/rules/*.md) were found."]);
  });
});
