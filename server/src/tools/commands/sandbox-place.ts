/**
 * Where execute_command's command will run, worked out before the gate is asked: inside the
 * sandbox, outside it because it cannot run here or because the model asked (`outside_sandbox`,
 * with a reason), or with the sandbox off; and the refusal when `[exec] sandbox = "required"`
 * forbids both ways out, so nothing is asked that could not run.
 */
import type { ProcessManager } from "../../exec/processes.js";
import { SandboxRequiredError } from "../../exec/sandbox/settings.js";
import type { CommandSandbox } from "../../vocabulary/policy.js";

/** The command's place for the gate, or why it may not run at all. */
export async function commandSandbox(processes: ProcessManager, outside: string | undefined): Promise<{ sandbox: CommandSandbox } | { refused: string }> {
  const mode = processes.sandbox.mode;
  if (mode === "off") return { sandbox: { state: "off" } };
  if (outside !== undefined) {
    return mode === "required" ? { refused: new SandboxRequiredError().message } : { sandbox: { state: "asked", reason: outside } };
  }
  const outlook = await processes.sandboxOutlook();
  if (outlook.sandboxed) return { sandbox: { state: "inside" } };
  return mode === "required" ? { refused: new SandboxRequiredError(outlook.why).message } : { sandbox: { state: "unavailable", why: outlook.why } };
}
