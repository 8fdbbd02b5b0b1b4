/**
 * Using a skill that the project's repository defines: its instructions steer the agent, so they
 * reach the model only after the user approved that exact SKILL.md (and file list) once, in an
 * editor prompt, as with project MCP servers (approved-once.ts). The approval is kept in
 * the project's approvals.toml, signed with the user's key, as an `mcp_server` entry named
 * `skill:NAME` whose "command" is the skill's digest: a changed SKILL.md is asked again. User
 * skills (`~/.config/agent-lsp/skills`) are the user's own and need no approval.
 */
import type { Editor } from "../editor/editor.js";
import { skillDigest, type Skill } from "../knowledge/skills.js";
import { ApprovedOnce } from "./approved-once.js";
import type { ApprovalBook } from "./rule-book.js";

const USE_SKILL = "Use it";
const DONT_USE_SKILL = "Don't use it";

/** Asks for and records approvals of project skills. */
export class SkillApproval {
  private readonly once: ApprovedOnce;

  constructor(editor: Editor, book: ApprovalBook) {
    this.once = new ApprovedOnce(editor, book);
  }

  /** Undefined when the skill may be used, else why not (in words for the tool result). */
  async approve(skill: Skill, need: { sessionId: string; root: string }, signal: AbortSignal): Promise<string | undefined> {
    if (skill.source === "user") return undefined;
    const rule = { kind: "mcp_server" as const, name: `skill:${skill.name}`, command: `SKILL.md sha256 ${skillDigest(skill)}` };
    const question =
      `The project defines the skill "${skill.name}" (${skill.file}): ${skill.description}\n` +
      `Its instructions would steer the agent${skill.allowedTools ? ` with the tools ${skill.allowedTools.join(", ")}` : " with every tool of the session"}. ` +
      "Use it? agent-lsp records your answer for this exact SKILL.md and asks again if it changes.";
    const outcome = await this.once.ask(rule, { sessionId: need.sessionId, question, yes: USE_SKILL, no: DONT_USE_SKILL }, need.root, signal);
    if (outcome.approved) return undefined;
    const why = !outcome.asked ? "there was no terminal or editor to ask the user in" : outcome.answered ? "the user chose not to use it" : "the prompt got no answer";
    return `The project skill "${skill.name}" was not approved (${why}); its instructions were not loaded. Do the task without it, or ask the user.`;
  }
}
