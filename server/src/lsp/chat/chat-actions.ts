/**
 * The chat file's code actions and commands: `Send to agent` (a prompt, or a slash command such
 * as `/undo` or `/restore <id>`), cancel, new session, safety modes, undo and checkpoints in the
 * file; the answers of a waiting approval or question block on it; `Add selection to agent chat`
 * and `Open agent chat` in any file. Each action is a Command with its arguments, so
 * `:lsp-workspace-command` with no arguments works for those that need none. What a block is
 * comes from the server's record of the file (chat-layout.ts), never from its text: a block the
 * server did not write, or no longer waits on, offers only a line that says so.
 */
import type { CodeAction, CodeActionParams, Range } from "vscode-languageserver/node.js";
import { AgentRequestError, ErrorCodes } from "../../agent/errors.js";
import { SAFETY_MODES, type SafetyMode } from "../../config/schema.js";
import { CHAT_ACTION_KIND } from "../capabilities.js";
import type { ChatFile } from "./chat-file.js";
import { APPROVAL_ANSWERS, type PendingBlock } from "./chat-prompts.js";
import { AGENT_HEADING, isBlockHeading, YOU_HEADING } from "./chat-text.js";

/** Starts a turn of the chat's session with `prompt`, taken from the draft `draft` (the command runner's job). */
export type StartChatTurn = (sessionId: string, prompt: string, draft: string) => Promise<unknown>;

/** The code actions the chat adds for `params` (none when the mode is off). */
export async function chatCodeActions(chat: ChatFile, params: CodeActionParams, running: boolean): Promise<CodeAction[]> {
  if (!chat.enabled) return [];
  const { textDocument, range } = params;
  if (!chat.isChat(textDocument.uri)) {
    return [command("Add selection to agent chat", "agent.addSelection", [{ uri: textDocument.uri, range }]), command("Open agent chat", "agent.openChat", [])];
  }
  const actions = [...(await blockActions(chat, range))];
  actions.push(command("Send to agent", "agent.send", []));
  if (running) actions.push(command("Cancel agent turn", "agent.cancel", []));
  actions.push(command("New agent session", "agent.newSession", []));
  for (const mode of SAFETY_MODES) actions.push(command(`Set safety mode: ${mode}`, "agent.setMode", [mode]));
  actions.push(command("Undo last agent change", "agent.command", ["undo"]));
  actions.push(command("Show checkpoints", "agent.command", ["checkpoints"]));
  return actions;
}

/** The answers of the waiting block the cursor is in, first in the menu; a line saying why when it does not wait. */
async function blockActions(chat: ChatFile, range: Range): Promise<CodeAction[]> {
  const key = await chat.doc.pieceAtLine(range.start.line);
  const pending = key ? chat.prompts.byPiece(key) : undefined;
  if (pending) return answers(pending);
  const settled = key ? chat.prompts.settledByPiece(key) : undefined;
  const looksLike = settled ?? blockAbove(await chat.doc.text(), range.start.line);
  if (!looksLike) return [];
  return [command(`Not waiting: block #${looksLike} (${notWaitingReason(chat, looksLike)})`, "agent.answer", [{ block: looksLike }])];
}

function answers(block: PendingBlock): CodeAction[] {
  const args = (answer?: string) => [{ block: block.id, ...(answer === undefined ? {} : { answer }) }];
  if (block.kind === "question") {
    const picks = block.choices.map((c) => command(c, "agent.answer", args(c)));
    return block.freeText ? [...picks, command("Send answer", "agent.answer", args())] : picks;
  }
  return APPROVAL_ANSWERS.filter((a) => a.optionId !== "allow_always" || block.rememberable).map((a) => command(a.title, "agent.answer", args(a.optionId)));
}

/** Why block `id` takes no answer, in a few words. */
function notWaitingReason(chat: ChatFile, id: string): string {
  const outcome = chat.prompts.outcome(id);
  return outcome ? `settled: ${outcome}` : "agent-lsp did not write it in this run";
}

/** The id of the block heading at or above 0-based `line`, unless a `##` heading comes between. */
function blockAbove(text: string, line: number): string | undefined {
  const lines = text.split("\n");
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    const id = isBlockHeading(lines[i]!);
    if (id) return id;
    if (lines[i] === YOU_HEADING || lines[i] === AGENT_HEADING || /^#{1,2} /.test(lines[i]!)) return undefined;
  }
  return undefined;
}

function command(title: string, name: string, args: unknown[]): CodeAction {
  return { title, kind: CHAT_ACTION_KIND, command: { title, command: name, arguments: args } };
}

/** Runs a chat command; throws AgentRequestError with a readable message when it cannot. */
export async function runChatCommand(chat: ChatFile, name: string, args: unknown[], start: StartChatTurn): Promise<unknown> {
  switch (name) {
    case "agent.send":
      return send(chat, start);
    case "agent.openChat":
      return { shown: await chat.show(), uri: chat.doc.uri };
    case "agent.addSelection": {
      const arg = args[0] as { uri?: unknown; range?: Range } | undefined;
      if (typeof arg?.uri !== "string" || !arg.range) throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.addSelection works on a selection: pick \"Add selection to agent chat\" from the code-action menu in the file.");
      return { added: await chat.addSelection(arg.uri, arg.range) };
    }
    case "agent.answer":
      return answer(chat, args[0]);
    case "agent.setMode": {
      const mode = args[0];
      if (!SAFETY_MODES.includes(mode as SafetyMode)) throw new AgentRequestError(ErrorCodes.InvalidParams, `agent.setMode needs a mode: pick "Set safety mode: ..." from the code-action menu in the chat file (one of ${SAFETY_MODES.join(", ")}).`);
      return chat.setMode(mode as SafetyMode);
    }
    case "agent.command": {
      if (typeof args[0] !== "string") throw new AgentRequestError(ErrorCodes.InvalidParams, 'agent.command needs a command: write it under the last "## You" of the chat file (like /undo) and pick "Send to agent".');
      return chat.slashCommand(args[0], args.slice(1).map(String));
    }
    default:
      throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown chat command "${name}".`);
  }
}

/** Sends the draft: a slash command runs in the chat's session, anything else is a prompt. */
async function send(chat: ChatFile, start: StartChatTurn): Promise<unknown> {
  const draft = await chat.draft();
  const prompt = draft.trim();
  if (!prompt) throw new AgentRequestError(ErrorCodes.InvalidParams, `agent.send: nothing to send: write your prompt under the last "${YOU_HEADING}" at the bottom of .agent-lsp/chat.md.`);
  if (prompt.startsWith("/")) return chat.draftCommand(prompt, draft);
  return start(await chat.sessionId(), prompt, draft);
}

/** Settles a waiting block; a Reject or a written answer takes the text on the block's answer line. */
async function answer(chat: ChatFile, raw: unknown): Promise<{ answered: string }> {
  const arg = raw as { block?: unknown; answer?: unknown } | undefined;
  if (typeof arg?.block !== "string" || (arg.answer !== undefined && typeof arg.answer !== "string")) {
    throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.answer answers a block: pick the answer from the code-action menu on the block in the chat file.");
  }
  const pending = chat.prompts.get(arg.block);
  if (!pending) {
    const outcome = chat.prompts.outcome(arg.block);
    const why = outcome
      ? `it was settled already (${outcome})`
      : "agent-lsp did not write it, or wrote it before it started again (a waiting block does not outlive the server that asked)";
    throw new AgentRequestError(ErrorCodes.RequestFailed, `Block #${arg.block} is not waiting for an answer: ${why}. Nothing was done.`);
  }
  if (pending.kind === "question" && pending.freeText && typeof arg.answer !== "string") {
    await chat.doc.refresh();
    const written = (await chat.doc.pieces()).text(pending.pieces.answer).trim();
    if (!written) throw new AgentRequestError(ErrorCodes.InvalidParams, `Block #${arg.block}: write your answer on the line under the question first, then pick "Send answer".`);
    pending.settle(written);
    return { answered: arg.block };
  }
  if (typeof arg.answer !== "string") throw new AgentRequestError(ErrorCodes.InvalidParams, `Block #${arg.block} takes one of its answers: pick it from the code-action menu on the block.`);
  const allowed = pending.kind === "question" ? pending.choices : APPROVAL_ANSWERS.map((a) => a.optionId);
  if (!allowed.includes(arg.answer)) throw new AgentRequestError(ErrorCodes.InvalidParams, `Block #${arg.block} takes one of: ${allowed.join(", ")}.`);
  // A Reject reads the reason from the buffer as it is now.
  await chat.doc.refresh();
  pending.settle(arg.answer);
  return { answered: arg.block };
}
