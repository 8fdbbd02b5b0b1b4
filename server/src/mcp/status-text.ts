/** A server's status in words, the same in status updates, `agent-lsp mcp list` and doctor. */
import type { ServerStatus } from "./manager.js";

/** `ready: 12 tools, 3 resources, 1 prompt (2026-07-28, 340 ms)` or `failed: the command was not found: ...`. */
export function describeStatus(s: ServerStatus): string {
  if (s.state === "ready") {
    const counts = [plural(s.tools, "tool"), plural(s.resources + s.templates, "resource"), plural(s.prompts, "prompt")].join(", ");
    const timing = s.startMs !== undefined ? `, ${s.startMs} ms` : "";
    const warnings = s.warnings.length ? `; ${s.warnings.length} warning${s.warnings.length === 1 ? "" : "s"}: ${s.warnings.join("; ")}` : "";
    return `ready: ${counts} (${s.protocolVersion}${timing})${warnings}`;
  }
  const state = s.state.replace("_", " ");
  return s.error ? `${state}: ${s.error}` : state;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
