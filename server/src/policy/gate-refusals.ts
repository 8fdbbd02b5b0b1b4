/**
 * The gate's refusals: the decision that denies, and the sentences that say why (trust, a
 * read-only mode, an outside or sensitive path), so the model reads what to do instead.
 */
import type { GateDecision } from "../vocabulary/policy.js";
import { ruleCovers, type Scope } from "./rules.js";
import { subagentWriteRefusal } from "./trust.js";
import type { GateSession } from "./types.js";

/** Access to a place outside the project. */
export type OutsideAccess = "read" | "write";

/** A refusal with its reason. */
export function deny(reason: string): GateDecision {
  return { allowed: false, reason };
}

/** Whether a call already had this outside folder approved. */
export function coveredInCall(memory: { external: { dir: string; access: OutsideAccess }[] }, wanted: { kind: "external"; dir: string; access: OutsideAccess }): boolean {
  return memory.external.some((e) => ruleCovers({ kind: "external", ...e }, wanted));
}

export function guestRefusal(session: GateSession, what: string, action: "files" | "other" = "other"): string | undefined {
  if (session.trust === "operator") return undefined;
  if (session.trust === "subagent") return action === "files" ? subagentWriteRefusal(what) : undefined;
  return `${what} is not allowed: this session has guest trust (read-only).`;
}

export function outsideRefusal(session: GateSession, access: OutsideAccess, abs: string): string {
  const verb = access === "read" ? "Reading" : "Writing";
  return `${verb} ${abs} is not allowed: it is outside the project (${session.root}) and the session is ${session.mode === "plan" ? "in plan mode" : "read-only"}.`;
}

export function sensitiveRefusal(session: GateSession, scope: Scope): string {
  return `${scope.sensitive?.headline ?? "A sensitive location"}: not allowed, the session is ${session.mode === "plan" ? "in plan mode" : "read-only"} and this needs the user's approval every time.`;
}

