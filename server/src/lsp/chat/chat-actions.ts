/**
 * The chat file's code actions and commands: `Send to agent`, cancel, new session, safety modes,
 * undo and checkpoints in the file; the answers of an approval or question block on it; `Add
 * selection to agent chat` and `Open agent chat` in any file. Each action is a Command with its
 * arguments, so `:lsp-workspace-command` with no arguments works for those that need none.
 */
import type { CodeAction, CodeActionParams, Range } from "vscode-languageserver/node.js";
import { AgentRequestError, ErrorCodes } from "../../agent/errors.js";
import { SAFETY_MODES, type SafetyMode } from "../../config/schema.js";
import { CHAT_ACTION_KIND } from "../capabilities.js";
import type { ChatFile } from "./chat-file.js";
import { APPROVAL_ANSWERS } from "./chat-prompts.js";
import { blockAt, pendingPrompt, writtenAnswer } from "./chat-text.js";


/** Starts a turn of the chat's session (the command runner's job). */
export type StartChatTurn = (sessionId: string, prompt: string, echo: string | undefined) => Promise<unknown>;

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

/** The answers of the waiting block the range is in, first in the menu. */
async function blockActions(chat: ChatFile, range: Range): Promise<CodeAction[]> {
  const block = blockAt(await chat.writer.text(), range.start.line);
  const pending = block && chat.prompts.get(block.id);
  if (!block || !pending) return [];
  if (pending.kind === "question") {
    const picks = pending.choices.map((c) => command(c, "agent.answer", [{ block: block.id, answer: c }]));
    return pending.freeText ? [...picks, command("Send answer", "agent.answer", [{ block: block.id }])] : picks;
  }
  return APPROVAL_ANSWERS.filter((a) => a.optionId !== "allow_always" || pending.rememberable).map((a) =>
    command(a.title, "agent.answer", [{ block: block.id, answer: a.optionId }]),
  );
}

function command(title: string, name: string, args: unknown[]): CodeAction {
  return { title, kind: CHAT_ACTION_KIND, command: { title, command: name, arguments: args } };
}

/** Runs a chat command; throws AgentRequestError with a readable message when it cannot. */
export async function runChatCommand(chat: ChatFile, name: string, args: unknown[], start: StartChatTurn): Promise<unknown> {
  switch (name) {
    case "agent.send": {
      const prompt = pendingPrompt(await chat.writer.text());
      if (!prompt) throw new AgentRequestError(ErrorCodes.InvalidParams, `agent.send: nothing to send: write your prompt under the last "## You" in .agent-lsp/chat.md.`);
      return start(chat.sessionId(), prompt, undefined);
    }
    case "agent.openChat":
      return { shown: await chat.show(), uri: chat.writer.uri };
    case "agent.addSelection": {
      const arg = args[0] as { uri?: unknown; range?: Range } | undefined;
      if (typeof arg?.uri !== "string" || !arg.range) throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.addSelection takes [{uri, range}] (use the code action).");
      const rel = await chat.addSelection(arg.uri, arg.range);
      return { added: rel };
    }
    case "agent.answer":
      return answer(chat, args[0], await chat.writer.text());
    case "agent.setMode": {
      const mode = args[0];
      if (!SAFETY_MODES.includes(mode as SafetyMode)) throw new AgentRequestError(ErrorCodes.InvalidParams, `agent.setMode takes [mode], one of ${SAFETY_MODES.join(", ")}.`);
      return chat.setMode(mode as SafetyMode);
    }
    case "agent.command": {
      if (typeof args[0] !== "string") throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.command takes [command, ...args] (a slash command without its slash).");
      return chat.slashCommand(args[0], args.slice(1).map(String));
    }
    default:
      throw new AgentRequestError(ErrorCodes.InvalidParams, `Unknown chat command "${name}".`);
  }
}

/** Settles a waiting block; a free-text question's answer is read from under its block in `chatText`. */
function answer(chat: ChatFile, raw: unknown, chatText: string): { answered: string } {
  const arg = raw as { block?: unknown; answer?: unknown } | undefined;
  if (typeof arg?.block !== "string" || (arg.answer !== undefined && typeof arg.answer !== "string")) {
    throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.answer takes [{block, answer}] (use the code action on the block).");
  }
  const pending = chat.prompts.get(arg.block);
  if (!pending) throw new AgentRequestError(ErrorCodes.RequestFailed, `Block #${arg.block} is no longer waiting for an answer (answered, timed out or cancelled).`);
  if (pending.kind === "question" && pending.freeText && typeof arg.answer !== "string") {
    const written = writtenAnswer(chatText, arg.block);
    if (!written) throw new AgentRequestError(ErrorCodes.InvalidParams, `Block #${arg.block}: write your answer on the lines under the question first, then pick "Send answer".`);
    pending.settle(written);
    return { answered: arg.block };
  }
  if (typeof arg.answer !== "string") throw new AgentRequestError(ErrorCodes.InvalidParams, "agent.answer takes [{block, answer}] (use the code action on the block).");
  const allowed = pending.kind === "question" ? pending.choices : APPROVAL_ANSWERS.map((a) => a.optionId);
  if (!allowed.includes(arg.answer)) throw new AgentRequestError(ErrorCodes.InvalidParams, `Block #${arg.block} takes one of: ${allowed.join(", ")}.`);
  pending.settle(arg.answer);
  return { answered: arg.block };
}
