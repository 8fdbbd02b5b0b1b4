/**
 * A command that sends a message (a workflow, a skill, an MCP prompt): the text goes in as the
 * user's message with the prompt's other parts after it, the transcript shows it (files as
 * attachments), and the turn runs as any other.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionEvents } from "../../editor/session-events.js";
import type { PromptContentBlock } from "../../protocol/schemas.js";
import type { Agent } from "../agent.js";
import type { Session } from "../session.js";
import type { CommandRun } from "./slash-commands.js";

/** Sends `text` (and `context`) as the user's message and runs the turn; says how it ended when not normally. */
export async function sendAsUser(agent: Agent, events: SessionEvents, session: Session, text: string, context: PromptContentBlock[] = []): Promise<CommandRun> {
  const words = context.filter((b) => b.type === "text").map((b) => (b as { text: string }).text);
  const attachments = context.flatMap((b) => (b.type === "resource" ? [shownPath(session.root, b.uri)] : []));
  events.emit(session.id, { kind: "user_message", text: [text, ...words].join("\n\n"), ...(attachments.length ? { attachments } : {}) });
  const started = await agent.startTurn({ sessionId: session.id, prompt: context.length ? [{ type: "text", text }, ...context] : text });
  const outcome = await started.finished;
  const message = outcome.stopReason === "end_turn" ? "" : `Stopped: ${outcome.stopReason}${outcome.error ? ` (${outcome.error})` : ""}.`;
  return { message, turn: { outcome, settled: started.settled } };
}

/** A file the prompt carried, as the transcript names it: root-relative when inside the project. */
function shownPath(root: string, uri: string): string {
  const abs = uri.startsWith("file:") ? fileURLToPath(uri) : uri;
  const rel = path.relative(root, abs);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : abs;
}
