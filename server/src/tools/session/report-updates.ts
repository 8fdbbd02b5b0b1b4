/**
 * The updates the reporting tools stream (working_respond, phase_report, attempt_completion),
 * built from a call's input: by the tools as they run, and by the replay of a resumed session,
 * so both show the same thing.
 */
import type { SessionUpdate } from "../../protocol/updates.js";

/**
 * What the session-only tools (the checklist, the reports) share: they change nothing in the
 * project, so they run in every mode, side by side with reads, and show as thinking.
 */
export function sessionNoteTool(category: "checklist" | "reporting") {
  return { policyClass: "read_only", callKind: "think", category, isMutating: false } as const;
}

/** The update a reporting tool's call shows, or undefined for any other call (or a bad input). */
export function reportUpdate(name: string, input: unknown): SessionUpdate | undefined {
  const i = (input ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof i[key] === "string" && i[key] ? (i[key] as string) : undefined);
  if (name === "working_respond" && text("message")) return { kind: "working_message", text: text("message")! };
  if (name === "attempt_completion" && text("result")) {
    const command = text("command");
    return { kind: "completion", result: text("result")!, ...(command ? { command } : {}) };
  }
  if (name === "phase_report" && text("completed") && text("verification")) {
    const next = text("next_phase");
    return {
      kind: "phase_report",
      completed: text("completed")!,
      verification: text("verification")!,
      ...(next ? { nextPhase: next } : {}),
      requiresAcknowledgment: i.requires_acknowledgment === true,
    };
  }
  return undefined;
}
