/**
 * Commands in the ACP client's terminal (`terminal/create` and friends), for a client that
 * declares `terminal`: the command runs in the platform's shell as a local run does, the tool
 * call shows the terminal, and the timeout and a cancel kill it (`terminal/kill`). The terminal
 * is always released, whatever happened.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ClientTerminal, TerminalResult, TerminalRun } from "../editor/session-ui.js";
import { shellInvocation } from "../exec/shell.js";
import type { Logger } from "../util/log.js";

/** The client's terminal methods and the session/update sender. */
export interface AcpTerminalDeps {
  peer(): acp.AgentContext;
  notify(sessionId: string, update: acp.SessionUpdate): void;
  log: Logger;
}

/** A ClientTerminal over ACP's terminal methods. */
export class AcpTerminal implements ClientTerminal {
  constructor(private readonly deps: AcpTerminalDeps) {}

  async run(request: TerminalRun): Promise<TerminalResult> {
    const started = Date.now();
    const program = request.program ?? shellInvocation(request.command);
    const env = Object.entries(request.program?.env ?? {}).map(([name, value]) => ({ name, value }));
    const handle = await this.deps.peer().createTerminal({
      sessionId: request.sessionId,
      command: program.file,
      args: [...program.args],
      ...(env.length ? { env } : {}),
      cwd: request.cwd,
      outputByteLimit: request.maxOutputBytes,
    });
    try {
      this.deps.notify(request.sessionId, { sessionUpdate: "tool_call_update", toolCallId: request.toolCallId, content: [{ type: "terminal", terminalId: handle.id }] });
      const killed = await this.waitOrKill(handle, request);
      const { output, truncated, exitStatus } = await handle.currentOutput();
      return { exitCode: exitStatus?.exitCode ?? null, signal: exitStatus?.signal ?? null, output, truncated, durationMs: Date.now() - started, ...(killed ? { killed } : {}) };
    } finally {
      await handle.release().catch((err: Error) => this.deps.log.warn(`terminal/release ${handle.id}: ${err.message}`));
    }
  }

  /** Waits for the exit; kills on the timeout or a cancel and says which. */
  private async waitOrKill(handle: acp.TerminalHandle, request: TerminalRun): Promise<TerminalResult["killed"]> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<"timeout" | "cancelled">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), request.timeoutMs);
      onAbort = () => resolve("cancelled");
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const first = await Promise.race([handle.waitForExit().then(() => undefined), stop]);
      if (!first) return undefined;
      await handle.kill();
      await handle.waitForExit();
      return first;
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort!);
    }
  }
}
