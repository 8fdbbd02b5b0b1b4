/**
 * The Workspace seam: the only way anything reads or changes files. Reads return the editor's
 * buffer when the document is open (unsaved text included), else the disk.
 */
import { readFile, realpath } from "node:fs/promises";
import type { Editor } from "../editor/editor.js";
import { resolveAgainstRoot, type ResolvedPath } from "./paths.js";

/** Text read for the agent. */
export interface ReadResult {
  path: ResolvedPath;
  text: string;
  /** Where the text came from: the editor's buffer or the file on disk. */
  source: "buffer" | "disk";
  /** The buffer's version when it came from the editor. */
  version?: number;
}

/** A project root and the editor that has its files open. */
export class Workspace {
  private realRootPromise: Promise<string> | undefined;

  /**
   * @param root absolute path of the project root (LSP workspace folder or session cwd)
   * @param editor who has documents open
   */
  constructor(
    readonly root: string,
    readonly editor: Editor,
  ) {}

  /** Resolves a path the model gave (relative to the root, absolute, or a file URI). */
  async resolve(input: string): Promise<ResolvedPath> {
    this.realRootPromise ??= realpath(this.root).catch(() => this.root);
    return resolveAgainstRoot(this.root, await this.realRootPromise, input);
  }

  /** The text of a file: the open buffer when there is one, else the disk (UTF-8). */
  async readText(input: string | ResolvedPath): Promise<ReadResult> {
    const resolved = typeof input === "string" ? await this.resolve(input) : input;
    const doc = this.editor.openDocument(resolved.uri);
    if (doc) return { path: resolved, text: doc.text, source: "buffer", version: doc.version };
    const text = await readFile(resolved.abs, "utf8");
    return { path: resolved, text, source: "disk" };
  }

  /** The raw bytes on disk, or the open buffer's text encoded as UTF-8. */
  async readBytes(input: string | ResolvedPath): Promise<{ path: ResolvedPath; bytes: Buffer; source: "buffer" | "disk" }> {
    const resolved = typeof input === "string" ? await this.resolve(input) : input;
    const doc = this.editor.openDocument(resolved.uri);
    if (doc) return { path: resolved, bytes: Buffer.from(doc.text, "utf8"), source: "buffer" };
    return { path: resolved, bytes: await readFile(resolved.abs), source: "disk" };
  }
}
