/**
 * textDocument/codeAction: "Ask agent ..." entries in the editor's code-action menu. Each is a
 * Command the client runs through workspace/executeCommand (agent-commands.ts runs it), so an
 * editor that knows nothing of the agent protocol still reaches the agent from a diagnostic or a
 * selection.
 */
import type {
  ClientCapabilities,
  CodeAction,
  CodeActionParams,
  Command,
  Connection,
  Diagnostic,
  Range,
} from "vscode-languageserver/node.js";
import type { Agent } from "../agent/agent.js";
import type { Logger } from "../util/log.js";
import { AgentCommandRunner, type CommandEditor } from "./agent-commands.js";
import { AGENT_ACTION_KINDS, type AgentActionCommand } from "./capabilities.js";
import { chatCodeActions } from "./chat/chat-actions.js";
import type { ChatFile } from "./chat/chat-file.js";

/** The single argument every agent action command carries. */
export interface AgentActionArgs {
  uri: string;
  range: Range;
  diagnostics?: Diagnostic[];
  /** agent.refactor: how to refactor. */
  instruction?: string;
}

const TITLE_MAX = 80;

/** `CodeActionTriggerKind.Automatic`: the client asked on its own (a hint gutter), not the user. */
const AUTOMATIC = 2;

/**
 * The refactorings offered one action each to clients that cannot show a follow-up question
 * (Helix): the menu entry is the question's answer.
 */
const REFACTORINGS = ["Make it simpler and clearer", "Improve the names", "Split it into smaller functions", "Make it faster"];

/**
 * The actions offered for a range: fix for diagnostics, the rest for a non-empty selection, and
 * "about this line" for a cursor where nothing else applies. `plain` (the chat-file mode) also
 * offers fix on a line without diagnostics (Helix sends a server only its own) and one refactor
 * action per refactoring instead of a question.
 */
function agentCodeActions(params: CodeActionParams, plain: boolean): CodeAction[] {
  const { textDocument, range, context } = params;
  const diagnostics = context.diagnostics ?? [];
  const args: AgentActionArgs = { uri: textDocument.uri, range, ...(diagnostics.length ? { diagnostics } : {}) };
  const actions: CodeAction[] = [];
  if (diagnostics.length) {
    actions.push(action(`Ask agent to fix: ${oneLine(diagnostics[0]!.message)}`, "agent.fix", args, diagnostics));
  } else if (plain) {
    actions.push(action(`Ask agent to fix line ${range.start.line + 1}`, "agent.fix", args));
  }
  if (!isEmptyRange(range)) {
    actions.push(action("Ask agent: explain", "agent.explain", args));
    if (plain) {
      for (const instruction of REFACTORINGS) actions.push(action(`Ask agent to refactor: ${instruction.toLowerCase()}`, "agent.refactor", { ...args, instruction }));
    } else {
      actions.push(action("Ask agent: refactor...", "agent.refactor", args));
    }
    actions.push(action("Ask agent: write tests", "agent.tests", args));
  } else if (!diagnostics.length) {
    // A bare cursor with nothing reported: the menu would be empty, so offer the line itself.
    const line = { start: { line: range.start.line, character: 0 }, end: { line: range.start.line + 1, character: 0 } };
    actions.push(action("Ask agent about this line", "agent.explain", { ...args, range: line }));
  }
  return actions;
}

function onlyKinds(actions: CodeAction[], only: string[] | undefined): CodeAction[] {
  return only?.length ? actions.filter((a) => only.some((k) => kindIncludes(k, a.kind!))) : actions;
}

/**
 * Registers textDocument/codeAction and returns the runner for the action commands, which
 * execute-commands.ts routes to (one workspace/executeCommand handler serves every command).
 */
export function registerCodeActions(connection: Connection, agent: () => Agent, editor: CommandEditor, log: Logger, chat?: ChatFile): AgentCommandRunner {
  const runner = new AgentCommandRunner({ agent, editor, log, ...(chat ? { chat: () => (chat.enabled ? chat : undefined) } : {}) });
  connection.onCodeAction(async (params) => {
    const plain = chat?.enabled === true;
    const inChat = plain && chat.isChat(params.textDocument.uri);
    const running = plain && agent().all().some((s) => s.turn && !s.turn.controller.signal.aborted);
    const chatActions = chat ? await chatCodeActions(chat, params, running) : [];
    const listed = params.context.triggerKind === AUTOMATIC
      ? await automaticActions(params, plain, inChat, chatActions, editor)
      : inChat ? chatActions : [...agentCodeActions(params, plain), ...chatActions];
    const actions = onlyKinds(listed, params.context.only);
    // Clients without code-action literals (pre-3.8) only understand bare Commands.
    return literalSupport(editor.capabilities) ? actions : actions.map((a) => a.command as Command);
  });
  return runner;
}

/**
 * The answer to an automatic request (`triggerKind: 2`: a hint gutter or lightbulb asking on
 * every cursor move): only what fits the position, so an ordinary line shows no hint. A
 * diagnostic under the cursor gets fix, a real selection (more than the one-cell cursor) the
 * selection's actions; in the chat file, only the answers of the waiting block under the cursor.
 * Never "fix line N", "about this line" or "Open agent chat", which fit any line.
 */
async function automaticActions(params: CodeActionParams, plain: boolean, inChat: boolean, chatActions: CodeAction[], editor: CommandEditor): Promise<CodeAction[]> {
  if (inChat) return chatActions.filter((a) => a.command?.command === "agent.answer");
  const diagnostics = params.context.diagnostics ?? [];
  const selected = isSelection((await editor.readDocument(params.textDocument.uri))?.text, params.range);
  if (!selected && !diagnostics.length) return [];
  const ours = agentCodeActions(params, plain).filter((a) => (a.command?.command === "agent.fix" ? diagnostics.length > 0 : selected));
  return [...ours, ...(selected ? chatActions.filter((a) => a.command?.command === "agent.addSelection") : [])];
}

/**
 * Whether `range` of `text` is a selection the user made: at least two characters that are not
 * line breaks, not all blank. Helix's cursor is a one-character range (on a blank line, the line
 * break), which is no selection.
 */
export function isSelection(text: string | undefined, range: Range): boolean {
  if (text === undefined || isEmptyRange(range)) return false;
  const lines = text.split("\n").slice(range.start.line, range.end.line + 1);
  if (!lines.length) return false;
  const last = lines.length - 1;
  lines[last] = lines[last]!.slice(0, range.end.character);
  lines[0] = lines[0]!.slice(range.start.character);
  const selected = lines.join("").replace(/\r/g, "");
  return selected.length >= 2 && selected.trim().length > 0;
}

function action(title: string, command: AgentActionCommand, args: AgentActionArgs, diagnostics?: Diagnostic[]): CodeAction {
  return {
    title,
    kind: AGENT_ACTION_KINDS[command],
    ...(diagnostics ? { diagnostics } : {}),
    command: { title, command, arguments: [args] },
  };
}

/** The first line of a message, shortened so the menu entry stays on one line. */
function oneLine(message: string): string {
  const first = message.trim().split(/\r?\n/, 1)[0] ?? "";
  return first.length > TITLE_MAX ? `${first.slice(0, TITLE_MAX - 1)}…` : first;
}

function isEmptyRange(r: Range): boolean {
  return r.start.line === r.end.line && r.start.character === r.end.character;
}

/** LSP kinds are dot-separated hierarchies: "refactor" includes "refactor.rewrite". */
function kindIncludes(filter: string, kind: string): boolean {
  return kind === filter || kind.startsWith(`${filter}.`);
}

function literalSupport(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.codeAction?.codeActionLiteralSupport !== undefined;
}
