/**
 * The memory index section of the system prompt: each memory file's path and first line, so the
 * model knows what it remembered without a call. Read once per session, when its first request is
 * built: the prompt then stays the same for the whole session (and its prompt cache stays warm).
 */
import type { Config } from "../../config/schema.js";
import { memoryDirs, memoryIndex } from "../../tools/session/memory-store.js";
import type { Session } from "../session.js";

const indexes = new WeakMap<Session, string>();

/** The section ("" when the memory is empty or the budget is 0). */
export function memoryIndexSection(session: Session, config: Config): string {
  let index = indexes.get(session);
  if (index === undefined) {
    index = memoryIndex(memoryDirs(session.root), config.memory.index_budget_chars);
    indexes.set(session, index);
  }
  if (!index) return "";
  return ["Your memory (the memory tool reads and edits these files; keep them current):", index].join("\n");
}
