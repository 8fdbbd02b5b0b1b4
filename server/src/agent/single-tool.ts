/** Runs one tool call outside a model turn, through the same runner and gate as a turn. */
import type { ToolResultBlock } from "../vocabulary/messages.js";
import type { Agent } from "./agent.js";
import { runToolCalls } from "./turn/tool-runner.js";

/**
 * Runs `name` with `input` in the session and returns its result. `prepare` readies what the call
 * needs (by default what a turn would: every MCP server).
 */
export async function runSingleTool(
  agent: Agent,
  sessionId: string,
  name: string,
  input: unknown,
  prepare?: (signal: AbortSignal) => Promise<void>,
): Promise<ToolResultBlock> {
  const session = agent.get(sessionId);
  const d = agent.deps;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    // The tool may be an MCP server's (or mcp_tools): start the servers as a turn would.
    await (prepare ? prepare(controller.signal) : d.prepareTools?.(sessionId, controller.signal));
    const [result] = await runToolCalls(
      session,
      [{ type: "tool_call", id: "cli-1", name, input }],
      { editor: d.editor, events: d.events, registry: d.registry, gate: d.gate, services: d.services, outputBudget: d.config().tools.output_budget },
      controller.signal,
    );
    return result!;
  } finally {
    process.off("SIGINT", onSigint);
  }
}
