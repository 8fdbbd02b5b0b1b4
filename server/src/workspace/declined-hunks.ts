/**
 * What the user left out of a proposal they reviewed hunk by hunk, in words for the model. The
 * tool result shows the diff that was applied; without this the model cannot tell a hunk the
 * user declined from one it never proposed, and proposes it again.
 */
import { hunksOf } from "./diff.js";

/** One file of a partly accepted change: the proposal and what the user kept. */
export interface ReviewedFile {
  path: string;
  proposed: string;
  kept: string;
  /** The user took nothing of this file: it keeps its old text. */
  declinedWhole?: boolean;
}

/** Lines of one side quoted for the note; longer runs are cut, the model has the file. */
const MAX_QUOTED_LINES = 3;
const MAX_LINE_CHARS = 120;
/** Hunks listed per file before the rest is counted. */
const MAX_HUNKS = 8;

function quote(lines: readonly string[]): string {
  if (!lines.length) return "nothing";
  const shown = lines.slice(0, MAX_QUOTED_LINES).map((l) => JSON.stringify(l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
  const more = lines.length > MAX_QUOTED_LINES ? ` and ${lines.length - MAX_QUOTED_LINES} more lines` : "";
  return shown.join(" ") + more;
}

/** One line per declined hunk: where, what the file keeps, what was proposed. */
function describeFile(file: ReviewedFile): string[] {
  if (file.declinedWhole) return [`- ${file.path}: declined whole (none of its changes were applied)`];
  const hunks = hunksOf(file.kept, file.proposed, 0);
  const lines = hunks.slice(0, MAX_HUNKS).map((h) => {
    const kept = h.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1));
    const proposed = h.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1));
    const where = h.oldLines === 0 ? `after line ${h.oldStart}` : h.oldLines === 1 ? `line ${h.oldStart}` : `lines ${h.oldStart}-${h.oldStart + h.oldLines - 1}`;
    return `- ${file.path} ${where}: the file keeps ${quote(kept)}; you proposed ${quote(proposed)}`;
  });
  if (hunks.length > MAX_HUNKS) lines.push(`- ${file.path}: ${hunks.length - MAX_HUNKS} more declined hunks`);
  return lines;
}

/**
 * The note for a tool result when the user's review kept only part of the proposal (or edited
 * it); nothing when every file got the proposed text. Line numbers are those of the file as it
 * now is.
 */
export function declinedHunksNote(files: readonly ReviewedFile[], userWords?: string): string[] {
  const partial = files.filter((f) => f.kept !== f.proposed);
  if (!partial.length) return [];
  const lines = partial.flatMap(describeFile);
  const said = userWords ? `\nThe user said about what they declined: ${JSON.stringify(userWords)}. Follow what they said.` : "";
  return [
    `The user reviewed the change and declined part of it; these hunks were not applied (where the user edited the result, theirs stands):\n${lines.join("\n")}${said}\nDo not re-apply them unless the user asks.`,
  ];
}
