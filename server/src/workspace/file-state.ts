/**
 * The current state of one path as a change set sees it: the open buffer when the editor has the
 * document, else the file on disk (with the mode bits and BOM a rewrite must keep), else nothing.
 */
import { open, readFile, stat } from "node:fs/promises";
import type { DocumentHost } from "../editor/document-host.js";
import { decodeText, looksBinary } from "./encoding.js";
import { describeFsError, errnoCode, WorkspaceError } from "./errors.js";
import type { ResolvedPath } from "./paths.js";
import { withFileBytes } from "./scratch.js";

/** What is at a path right now. */
export interface FileState {
  /** A file (or an open buffer) is there. */
  exists: boolean;
  /** Where `text` came from. */
  source: "buffer" | "disk" | "none";
  /** The text without BOM; "" when nothing is there. */
  text: string;
  /** The file starts with a UTF-8 BOM. */
  bom: boolean;
  /** The first bytes contain NUL: not a text file. */
  binary: boolean;
  /** Buffer version, when the editor has the document open and has reported its version. */
  version?: number;
  /** Disk facts, when the file exists on disk. */
  mode?: number;
  mtimeMs?: number;
  size?: number;
}

/** The state of a missing path. */
export const MISSING: FileState = { exists: false, source: "none", text: "", bom: false, binary: false };

/** Disk facts of a path, or undefined when nothing is there; refuses directories. */
export async function diskFacts(
  path: ResolvedPath,
): Promise<{ mode: number; mtimeMs: number; size: number } | undefined> {
  try {
    const st = await stat(path.real);
    if (st.isDirectory()) {
      throw new WorkspaceError(`${path.rel} is a directory, not a file.`);
    }
    return { mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, size: st.size };
  } catch (err) {
    if (errnoCode(err) === "ENOENT") return undefined;
    throw describeFsError(err, path.rel);
  }
}

/** Loads what is at `path` now: buffer first, then disk. */
export async function loadFileState(editor: DocumentHost, path: ResolvedPath): Promise<FileState> {
  const doc = await editor.readDocument(path.uri);
  const facts = await diskFacts(path);
  if (doc) {
    const bom = doc.text.charCodeAt(0) === 0xfeff;
    return {
      exists: true,
      source: "buffer",
      text: bom ? doc.text.slice(1) : doc.text,
      bom: bom || (facts ? await diskHasBom(path) : false),
      binary: false,
      ...(doc.version === null ? {} : { version: doc.version }),
      ...facts,
    };
  }
  if (!facts) return MISSING;
  try {
    const decoded = withFileBytes(path.real, (bytes) => ({ ...decodeText(bytes), binary: looksBinary(bytes) }));
    const { text, bom, binary } = decoded ?? (await readLarge(path.real));
    return { exists: true, source: "disk", text, bom, binary, ...facts };
  } catch (err) {
    throw describeFsError(err, path.rel);
  }
}

/** Reads a file too large for the shared buffer. */
async function readLarge(file: string): Promise<{ text: string; bom: boolean; binary: boolean }> {
  const bytes = await readFile(file);
  return { ...decodeText(bytes), binary: looksBinary(bytes) };
}

/** Whether the file on disk starts with a BOM (an editor buffer never shows it). */
async function diskHasBom(path: ResolvedPath): Promise<boolean> {
  try {
    const handle = await open(path.real, "r");
    try {
      const head = Buffer.alloc(3);
      const { bytesRead } = await handle.read(head, 0, 3, 0);
      return bytesRead === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}
