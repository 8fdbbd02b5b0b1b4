/**
 * The open documents a session changed through the editor. Those changes live in the buffer
 * until someone saves it, while commands read the disk: before a command runs, the tool asks
 * which of them still differ from the disk (to save them, or to say the command will not see
 * them).
 */
import { readFile } from "node:fs/promises";
import type { DocumentHost } from "../editor/document-host.js";
import { decodeText } from "./encoding.js";
import type { ResolvedPath } from "./paths.js";

/** Agent changes that may not be on disk yet. */
export class UnsavedEdits {
  private readonly paths = new Map<string, ResolvedPath>();

  /** Notes that the agent changed `path` in the editor's buffer. */
  record(path: ResolvedPath): void {
    this.paths.set(path.real, path);
  }

  /**
   * The recorded documents still open whose buffer is not what the disk has. The others are
   * forgotten: saved (or reverted), or closed, where the disk is all there is.
   */
  async pending(editor: DocumentHost): Promise<ResolvedPath[]> {
    const out: ResolvedPath[] = [];
    for (const [key, path] of this.paths) {
      const doc = await editor.readDocument(path.uri);
      if (doc && !(await sameAsDisk(path, doc.text))) out.push(path);
      else this.paths.delete(key);
    }
    return out;
  }
}

/** Whether the file on disk holds `text` (a BOM on either side aside). */
async function sameAsDisk(path: ResolvedPath, text: string): Promise<boolean> {
  const bytes = await readFile(path.real).catch(() => undefined);
  if (!bytes) return false;
  const buffer = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return decodeText(bytes).text === buffer;
}
