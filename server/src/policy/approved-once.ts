/**
 * What a project brings that runs or steers the agent (an MCP server's command line, a skill's
 * instructions) is used only after the user approved that exact thing once, in an editor prompt.
 * The approval is kept in the project's approvals.toml, signed with the user's key (an entry the
 * agent or the repository wrote grants nothing), whatever `remember_approvals` or the safety
 * mode say: `full_access` does not skip it. Shared by mcp-server-approval.ts and skill-approval.ts.
 */
import type { Editor } from "../editor/editor.js";
import { newRequestId } from "../editor/session-ui.js";
import type { ApprovalRule } from "./rules.js";
import type { ApprovalBook } from "./rule-book.js";

/** The rule an approval records: a name and the exact thing approved. */
export type OnceRule = Extract<ApprovalRule, { kind: "mcp_server" }>;

/** The question, and the choice that approves. */
export interface OncePrompt {
  sessionId: string;
  question: string;
  yes: string;
  no: string;
}

/**
 * How it went: approved (before or now), or not, whether a prompt was shown at all (not with no
 * terminal or editor to show it in) and whether the user answered it.
 */
export type OnceOutcome = { approved: true } | { approved: false; asked: boolean; answered: boolean };

/** Asks for, and records, approvals given once. */
export class ApprovedOnce {
  /** Approved in this run though the record failed to save: not asked twice. */
  private readonly approvedNow = new Set<string>();

  constructor(
    private readonly editor: Editor,
    private readonly book: ApprovalBook,
  ) {}

  /** Approved when the book (or this run) has `rule`; else asks, and records a Yes. */
  async ask(rule: OnceRule, prompt: OncePrompt, root: string, signal: AbortSignal): Promise<OnceOutcome> {
    const key = `${rule.name}\n${rule.command}`;
    if (this.approvedNow.has(key) || (await this.book.serverApproved(root, rule))) return { approved: true };
    if (this.editor.canAsk === false) return { approved: false, asked: false, answered: false };
    const answer = await this.editor.askUser({ sessionId: prompt.sessionId, requestId: newRequestId(), question: prompt.question, choices: [prompt.yes, prompt.no], allowFreeText: false }, signal);
    if (answer !== prompt.yes) return { approved: false, asked: true, answered: answer !== undefined };
    this.approvedNow.add(key);
    await this.book.approveServer(root, rule);
    return { approved: true };
  }
}
