/**
 * The tools for long work across context windows and sessions: memory, context_archive and
 * compact_context. The server registers this list.
 */
import { compactContextTool } from "./compact-context.js";
import { contextArchiveTool } from "./context-archive.js";
import { memoryTool } from "./memory.js";
import type { Capability } from "../types.js";

/** Every context tool. */
export const contextTools: Capability[] = [memoryTool, contextArchiveTool, compactContextTool];
