/**
 * A chat file read at start (a restart, a chat file left by an earlier run): everything above
 * the draft heading (the last `## You` that no `## Agent` follows) becomes the server's record as
 * it stands, the draft what is under it. The session the file talks to is the last `# Session`
 * heading; blocks that were waiting when the server stopped are found so the file can say they
 * are not waiting any more. Nothing in the file is trusted beyond that: no block is actionable
 * unless this server wrote it. Pure.
 */
import type { PieceInit } from "./chat-layout.js";
import { chatPreamble, DRAFT_HEADING, isBlockHeading, isHeading, sessionIdOf, YOU_HEADING, AGENT_HEADING } from "./chat-text.js";

/** Piece keys the chat file always has. */
export const PIECE = { preamble: "preamble", loaded: "loaded", heading: "draft-heading", draft: "draft" } as const;

/** What a chat file held when it was read. */
export interface LoadedChat {
  pieces: PieceInit[];
  /** The session named by the last `# Session` heading, if any. */
  sessionId?: string;
  /** Ids of the blocks that have no outcome line: they were waiting when the last server stopped. */
  unanswered: string[];
}

/** The pieces of a chat file's text; a new one starts with the preamble naming `actionKey` (client-profile.ts). */
export function loadChat(text: string, actionKey: string): LoadedChat {
  if (!text.trim()) {
    return {
      pieces: [
        { key: PIECE.preamble, owner: "server", text: chatPreamble(actionKey) },
        { key: PIECE.heading, owner: "server", text: DRAFT_HEADING },
        { key: PIECE.draft, owner: "user", text: "\n" },
      ],
      unanswered: [],
    };
  }
  const lines = text.split("\n");
  const heading = draftHeadingLine(lines);
  const head = heading < 0 ? text : lines.slice(0, heading).join("\n") + "\n";
  const pieces: PieceInit[] = [{ key: PIECE.loaded, owner: "server", text: head, present: true }];
  if (heading < 0) {
    pieces.push({ key: PIECE.heading, owner: "server", text: DRAFT_HEADING }, { key: PIECE.draft, owner: "user", text: "\n" });
  } else {
    const rest = lines.slice(heading + 1).join("\n");
    // The heading line as it is: without a line break when it ends the file.
    pieces.push({ key: PIECE.heading, owner: "server", text: heading === lines.length - 1 ? YOU_HEADING : DRAFT_HEADING, present: true });
    pieces.push({ key: PIECE.draft, owner: "user", text: rest, present: true });
  }
  const sessionId = lastSessionId(lines.slice(0, heading < 0 ? lines.length : heading));
  return { pieces, ...(sessionId ? { sessionId } : {}), unanswered: unansweredBlocks(head) };
}

/** The index of the draft heading: the last `## You` line with no `## Agent` line after it; -1 if none. */
function draftHeadingLine(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (isHeading(lines[i]!, AGENT_HEADING)) return -1;
    if (lines[i] === YOU_HEADING) return i;
  }
  return -1;
}

function lastSessionId(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const id = sessionIdOf(lines[i]!);
    if (id) return id;
  }
  return undefined;
}

/** Block ids whose heading has no `_#id: ..._` outcome line after it. */
function unansweredBlocks(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split("\n")) {
    const id = isBlockHeading(line);
    if (id && !text.includes(`_#${id}: `)) ids.push(id);
  }
  return ids;
}
