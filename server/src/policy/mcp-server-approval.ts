/**
 * Starting an MCP server that a file inside the project defines: it runs a program of the
 * repository's choosing, so it starts only after the user approved that exact command line once
 * (approved-once.ts).
 */
import type { Editor } from "../editor/editor.js";
import { ApprovedOnce } from "./approved-once.js";
import type { ApprovalBook } from "./rule-book.js";

/** A server to approve. */
export interface ServerToApprove {
  name: string;
  /** The exact command line (or address and headers) the approval covers. */
  launchLine: string;
  /** The project file that defines it. */
  source: string;
}

/** The choices of the prompt, "start" first. */
const START_SERVER = "Start it";
const DONT_START_SERVER = "Don't start it";

/** Asks for and records approvals of project-defined MCP servers. */
export class McpServerApproval {
  private readonly once: ApprovedOnce;

  constructor(editor: Editor, book: ApprovalBook) {
    this.once = new ApprovedOnce(editor, book);
  }

  /**
   * Resolves undefined when the server may start (approved before, or now), else the reason it
   * may not, in words for the status update and `agent-lsp mcp list`.
   */
  async approve(server: ServerToApprove, need: { sessionId: string; root: string }, signal: AbortSignal): Promise<string | undefined> {
    const question = `The project defines the MCP server "${server.name}" (in ${server.source}). Starting it runs:\n${server.launchLine}\nStart it? agent-lsp records your answer and does not ask again for this exact command line.`;
    const rule = { kind: "mcp_server" as const, name: server.name, command: server.launchLine };
    const outcome = await this.once.ask(rule, { sessionId: need.sessionId, question, yes: START_SERVER, no: DONT_START_SERVER }, need.root, signal);
    if (outcome.approved) return undefined;
    return outcome.answered
      ? `it is defined in ${server.source} and you chose not to start it; it is asked again when agent-lsp restarts`
      : `it is defined in ${server.source} and was not approved (the prompt got no answer); it is asked again when agent-lsp restarts`;
  }
}
