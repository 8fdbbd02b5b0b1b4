/**
 * Starting an MCP server that a file inside the project defines: it runs a program of the
 * repository's choosing, so it starts only after the user approved that exact command line once
 * (approved-once.ts). The question shows what would run one part per line, each escaped (a
 * newline or a run of spaces inside an argument cannot push `-e <code>` out of view), says when
 * it takes the place of one of the user's own servers, and names the credentials (environment
 * variables, headers) it would be given.
 */
import type { Editor } from "../editor/editor.js";
import type { McpLaunch } from "../vocabulary/mcp-launch.js";
import { ApprovedOnce } from "./approved-once.js";
import type { ApprovalBook } from "./rule-book.js";

/** A server to approve. */
export interface ServerToApprove {
  name: string;
  /** The exact command line (or address and headers) the approval covers. */
  launchLine: string;
  /** The project file that defines it. */
  source: string;
  /** What it runs, shown part by part. */
  launch: McpLaunch;
  /** Where the user's own server of the same name is defined, when this one takes its place. */
  replaces?: string;
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
    const question = launchQuestion(server);
    const rule = { kind: "mcp_server" as const, name: server.name, command: server.launchLine };
    const outcome = await this.once.ask(rule, { sessionId: need.sessionId, question, yes: START_SERVER, no: DONT_START_SERVER }, need.root, signal);
    if (outcome.approved) return undefined;
    if (!outcome.asked) return `it is defined in ${server.source} and needs your approval, which cannot be asked here (no terminal or editor to ask in): approve it once with agent-lsp mcp list in a terminal, or in your editor`;
    return outcome.answered
      ? `it is defined in ${server.source} and you chose not to start it; it is asked again when agent-lsp restarts`
      : `it is defined in ${server.source} and was not approved (the prompt got no answer); it is asked again when agent-lsp restarts`;
  }
}

/** The question: where it comes from, what it replaces, what runs (one part a line), what it is given. */
export function launchQuestion(server: ServerToApprove): string {
  const replaces = server.replaces
    ? ` It REPLACES your own server ${JSON.stringify(server.name)} (defined in ${server.replaces}): the project's definition runs in its place.`
    : "";
  const remote = server.launch.url !== undefined;
  return [
    `The project defines the MCP server ${JSON.stringify(server.name)} (in ${server.source}).${replaces}`,
    remote ? "Starting it sends requests to:" : "Starting it runs:",
    ...launchParts(server.launch).map((part) => `  ${part}`),
    credentialsLine(server.launch),
    "Start it? agent-lsp records your answer and does not ask again for this exact command line.",
  ].join("\n");
}

/** One line per part of the launch, each value escaped (quotes, `\n`, control characters shown). */
function launchParts(launch: McpLaunch): string[] {
  if (launch.url !== undefined) {
    return [
      `address: ${launch.url}`,
      ...Object.entries(launch.headers).map(([k, v]) => `header ${escaped(k)}: ${escaped(v)}`),
      ...Object.entries(launch.envHeaders).map(([k, v]) => `header ${escaped(k)}: the value of $${v}`),
      ...(launch.bearerTokenEnv ? [`header "Authorization": Bearer and the value of $${launch.bearerTokenEnv}`] : []),
    ];
  }
  return [
    `program: ${escaped(launch.command ?? "")}`,
    ...launch.args.map((arg, i) => `argument ${i + 1}: ${escaped(arg)}`),
    ...Object.entries(launch.env)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `environment: ${escaped(k)}=${escaped(v)}`),
    ...launch.envVars.filter((k) => !(k in launch.env)).map((k) => `environment: ${escaped(k)}, passed on from yours`),
    ...(launch.cwd ? [`in folder: ${escaped(launch.cwd)}`] : []),
  ];
}

/** The credentials the server would get from the configuration: variables and headers, by name. */
function credentialsLine(launch: McpLaunch): string {
  const given = [
    ...Object.keys(launch.env).map((k) => `environment variable ${k}`),
    ...launch.envVars.filter((k) => !(k in launch.env)).map((k) => `environment variable ${k} (your $${k})`),
    ...Object.keys(launch.headers).map((k) => `header ${k}`),
    ...Object.entries(launch.envHeaders).map(([k, v]) => `header ${k} (your $${v})`),
    ...(launch.bearerTokenEnv ? [`header Authorization (your $${launch.bearerTokenEnv})`] : []),
  ];
  return given.length ? `It would receive: ${given.join("; ")}.` : "It is given no environment variables or headers of yours by the configuration.";
}

/** A value as a JSON string: its quotes show where it starts and ends, escapes show what is inside. */
function escaped(value: string): string {
  return JSON.stringify(value);
}
