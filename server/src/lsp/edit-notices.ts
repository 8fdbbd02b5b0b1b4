/**
 * What the session (its model, and the person in the editor) is told when the editor's report
 * settles an edit after the tool that made it has returned: the model gets a notice with its
 * next tool result or prompt, the chat a status line, and the user a message when the editor
 * contradicted its own answer.
 */
import type { Settlement, TrackedEdit } from "./edit-tracker.js";
import { uriFileName } from "./uris.js";

/** What to say about a late settlement; nothing for a quiet confirmation. */
export interface SettlementNews {
  /** For the model, with its next input. */
  model: string;
  /** For the user, as a warning message, when the editor contradicted itself. */
  user?: string;
}

/** The words for an edit that a report settled after its tool returned. */
export function settlementNews(edit: TrackedEdit, settlement: Settlement): SettlementNews | undefined {
  const name = uriFileName(edit.uri);
  const again = `Read ${name} again before changing it.`;
  if (edit.answer === "unanswered") {
    if (settlement === "landed") return { model: `Your edit of ${name}, which the editor had not answered in time, did land after all: its report shows the new text.` };
    if (settlement === "closed") return { model: `${name} was closed in the editor before it reported your unanswered edit; whether the edit is there is not known. ${again}` };
    if (settlement === "refused") return { model: `The editor answered late that it did not apply your edit of ${name}; ${name} does not have it.` };
    return { model: `Your edit of ${name}, which the editor had not answered in time, did not land: the editor's report shows other text. ${again}` };
  }
  switch (settlement) {
    case "landed":
    case "refused":
      return undefined; // refused: only ever a late answer to an unanswered edit
    case "skipped":
      return {
        model: `The editor had said it applied your edit of ${name}, but its latest report shows ${name} without it: the edit did not land. ${again}`,
        user: `agent-lsp: the editor answered that it applied the agent's edit of ${name}, but its text does not have it. The agent was told.`,
      };
    case "unknown":
      return { model: `${name} changed in the editor in other ways before the editor reported your edit; whether the edit is there is not known. ${again}` };
    case "closed":
      return { model: `${name} was closed in the editor before it reported your edit; from now on it is read from disk, which has the edit only if it was saved. ${again}` };
  }
}

/** Notices waiting for each session's next tool result or prompt. */
export class NoticeBox {
  private readonly bySession = new Map<string, string[]>();

  add(sessionId: string, text: string): void {
    this.bySession.set(sessionId, [...(this.bySession.get(sessionId) ?? []), text]);
  }

  take(sessionId: string): string[] {
    const out = this.bySession.get(sessionId) ?? [];
    this.bySession.delete(sessionId);
    return out;
  }
}

