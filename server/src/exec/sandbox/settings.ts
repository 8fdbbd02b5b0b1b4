/**
 * What the sandbox is told and what it answers: the settings of `[exec]` (and the places to
 * hide, which the runtime works out from policy/sensitive.ts and hands down: exec/ sits below
 * policy/), and how one launch came out.
 */
import type { ExecNetwork, SandboxMode } from "../../config/schema-enums.js";

export type { ExecNetwork, SandboxMode };

/** How the sandbox is set up (the runtime fills it from config; a reload replaces it). */
export interface SandboxSettings {
  /** `[exec] sandbox`: `auto` sandboxes where it works, `required` refuses to run without, `off` never. */
  mode: SandboxMode;
  /** `[exec] network`: none at all, or the hosts of `allowHosts` through the filtering proxy. */
  network: ExecNetwork;
  /** `[exec] allow_hosts`: the hosts a sandboxed command may reach through the proxy. */
  allowHosts: readonly string[];
  /** `[web] allow_hosts`: hosts whose private or local addresses may be reached (the web tools' guard). */
  privateHosts: readonly string[];
  /**
   * Absolute paths no sandboxed process may read (credential folders and files, agent-lsp's own
   * config and state, `[policy] sensitive_paths`): each is covered by an empty, unreadable one.
   */
  hidden: readonly string[];
}

/** The settings where nothing is configured: no sandbox (the server always passes its config). */
export const NO_SANDBOX: SandboxSettings = { mode: "off", network: "off", allowHosts: [], privateHosts: [], hidden: [] };

/** How one launch runs: inside the sandbox, or not and why (shown with the tool call). */
export type SandboxOutcome = { sandboxed: true; network: ExecNetwork } | { sandboxed: false; why: string };

/** The words a tool result and a tool call update use for an outcome. */
export function describeOutcome(outcome: SandboxOutcome): string {
  if (!outcome.sandboxed) return `not sandboxed: ${outcome.why}`;
  return outcome.network === "allow_hosts" ? "sandboxed (network: [exec] allow_hosts only)" : "sandboxed";
}

/** Thrown when `[exec] sandbox = "required"` and a launch would run outside the sandbox. */
export class SandboxRequiredError extends Error {
  /** `why`: why the sandbox cannot run here; undefined when the launch asked to leave it. */
  constructor(why?: string) {
    super(
      why === undefined
        ? 'Not run: [exec] sandbox is "required", so nothing runs outside the sandbox (outside_sandbox cannot be granted). Nothing was started.'
        : `Not run: [exec] sandbox is "required" and the sandbox cannot run here (${why}). Nothing was started.`,
    );
  }
}
