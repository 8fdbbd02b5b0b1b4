/**
 * The chat file on disk, for when no editor has it open. It lives in the state folder (or the
 * user's, for a checkout agent-lsp cannot write: util/state-folder.ts), is read without following
 * a link (a cloned repository's `.agent-lsp/chat.md` could point anywhere) and written whole
 * through a temporary file and a rename, never through a link, so a reader never sees half of it.
 */
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { asStateError, ensureStateFolder, refuseLink, stateFolder, stateLocation, writeStateFile } from "../../util/state-folder.js";
import { CHAT_FILE } from "./chat-text.js";

/** Where the chat file is: in the state folder, or the project's `.agent-lsp` when that is unusable (refused on write). */
export function chatFilePath(root: string): string {
  let folder: string;
  try {
    folder = stateLocation(root);
  } catch {
    folder = stateFolder(root);
  }
  return path.join(folder, path.basename(CHAT_FILE));
}

/** The file's text; "" when it is missing or not a regular file. */
export async function readChatDisk(file: string): Promise<string> {
  const stat = await lstat(file).catch(() => undefined);
  if (!stat?.isFile()) return "";
  return readFile(file, "utf8");
}

/** Replaces the file's text at once; a link where it belongs, a full disk or a read-only folder is said so. */
export function writeChatDisk(root: string, file: string, text: string): void {
  try {
    stateLocation(root); // throws for a state folder that is a link or a file
    ensureStateFolder(root);
    refuseLink(file);
    writeStateFile(file, text, 0o644);
  } catch (err) {
    throw asStateError(err, `Could not write the chat file ${file}`);
  }
}
