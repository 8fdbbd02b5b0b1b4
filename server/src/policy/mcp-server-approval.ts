/**
 * Starting an MCP server that a file inside the project defines: it runs a program of the
 * repository's choosing, so it starts only after the user approved that exact command line once,
 * in an editor prompt. The approval is kept in the project's approvals.toml, signed with the
 * user's key (an entry the agent or the repository wrote grants nothing), whatever
 * `remember_approvals` or the safety mode say: `full_access` does not skip it.
 */
import type { Editor } from "../editor/editor.js";
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
  /** Approved in this run though the record failed to save: not asked twice. */
  private readonly approvedNow = new Set<string>();

  constructor(
    private readonly editor: Editor,
    private readonly book: ApprovalBook,
  ) {}

  /**
   * Resolves undefined when the server may start (approved before, or now), else the reason it
   * may not, in words for the status update and `agent-lsp mcp list`.
   */
  async approve(server: ServerToApprove, need: { sessionId: string; root: string }, signal: AbortSignal): Promise<string | undefined> {
    const rule = { kind: "mcp_server" as const, name: server.name, command: server.launchLine };
    if (this.approvedNow.has(key(server)) || (await this.book.serverApproved(need.root, rule))) return undefined;
    const answer = await this.editor.askUser(
      {
        sessionId: need.sessionId,
        question: `The project defines the MCP server "${server.name}" (in ${server.source}). Starting it runs:\n${server.launchLine}\nStart it? agent-lsp records your answer and does not ask again for this exact command line.`,
        choices: [START_SERVER, DONT_START_SERVER],
        allowFreeText: false,
      },
      signal,
    );
    if (answer !== START_SERVER) {
      return answer === undefined
        ? `it is defined in ${server.source} and was not approved (the prompt got no answer); it is asked again when agent-lsp restarts`
        : `it is defined in ${server.source} and you chose not to start it; it is asked again when agent-lsp restarts`;
    }
    this.approvedNow.add(key(server));
    await this.book.approveServer(need.root, rule);
    return undefined;
  }
}

function key(server: ServerToApprove): string {
  return `${server.name}\n${server.launchLine}`;
}
