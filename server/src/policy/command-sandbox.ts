/**
 * The gate's questions about a command, on top of what the sandbox already prevents:
 * - inside the sandbox a command cannot write outside the project (or read a credential), so
 *   such scopes need no answer; in `auto` mode it runs without the safety check; in `ask` a
 *   remembered program runs unasked, as the sandbox holds whatever the line really does;
 * - outside it (the sandbox cannot run here, or the model asked to leave it for a reason) a
 *   remembered program no longer covers the command: it is asked every time in `ask`, and goes
 *   to the safety check in `auto`, with the reason in the prompt;
 * - with `[exec] sandbox = "off"` the user chose the old rules: nothing changes.
 */
import type { CommandSandbox } from "../vocabulary/policy.js";
import type { Scope } from "./rules.js";

/** The scopes a command is decided by, given where it runs. */
export function scopesInSandbox(scopes: readonly Scope[], sandbox: CommandSandbox | undefined): Scope[] {
  switch (sandbox?.state) {
    case undefined:
    case "off":
      return [...scopes];
    case "inside":
      // A folder outside the project is read-only in the sandbox: nothing to grant there.
      return scopes.filter((s) => s.rule?.kind !== "external").map((s) => (s.sensitive ? s : { ...s, autoAllowed: true }));
    case "unavailable":
      return [...scopes, { unremembered: `it cannot be sandboxed here (${sandbox.why}), and commands outside the sandbox are asked every time`, autoAllowed: false }];
    case "asked":
      return [...scopes, { unremembered: `it runs outside the sandbox (${sandbox.reason}), which is asked every time`, autoAllowed: false }];
  }
}

/** What the prompt says of where the command runs (" — sandboxed", " — outside the sandbox: why"). */
export function sandboxWords(sandbox: CommandSandbox | undefined): string {
  switch (sandbox?.state) {
    case undefined:
    case "off":
      return "";
    case "inside":
      return " — sandboxed";
    case "unavailable":
      return ` — not sandboxed: ${sandbox.why}`;
    case "asked":
      return ` — outside the sandbox: ${sandbox.reason}`;
  }
}
