/**
 * Batch gating (docs/safety.md): a tool whose GateMetadata has `batchInput` (the computer tool)
 * is decided once per model message. Its input calls in that message are shown to the gate
 * together, with the newest screenshot the model saw; its looking calls run without asking.
 */
import type { ImageBlock, Message, ToolCallBlock } from "../../vocabulary/messages.js";
import type { GateDecision } from "../../vocabulary/policy.js";
import type { BatchCall, GateMetadata, ToolGate } from "../../policy/types.js";
import type { ToolRegistry } from "../../tools/registry.js";
import type { Capability, ToolBatch } from "../../tools/types.js";
import type { Session } from "../session.js";
import { toGateSession } from "./tool-runner.js";

/** The batch of one model message. */
export function newBatch(session: Session): ToolBatch {
  return { id: `b-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, userMessages: session.history.filter((m) => m.role === "user").length };
}

/** The description of `input` when `capability` gates it as part of a batch; undefined otherwise. */
function batchInputOf(capability: Capability, input: unknown): string | undefined {
  return (capability.metadata as GateMetadata).batchInput?.(input);
}

/** True when `capability` is gated per batch, never per call. */
export function isBatchGated(capability: Capability): boolean {
  return typeof (capability.metadata as GateMetadata).batchInput === "function";
}

/** One decision per input call of a batch-gated tool in `calls`, asked once per tool. */
export async function decideBatchInputs(
  session: Session,
  calls: readonly ToolCallBlock[],
  deps: { registry: ToolRegistry; gate: ToolGate },
  signal: AbortSignal,
): Promise<Map<string, GateDecision>> {
  const byTool = new Map<Capability, BatchCall[]>();
  for (const call of calls) {
    const capability = deps.registry.find(call.name);
    const description = capability && batchInputOf(capability, call.input);
    if (!capability || description === undefined) continue;
    const list = byTool.get(capability) ?? [];
    list.push({ id: call.id, name: call.name, title: capability.title(call.input), input: call.input, description });
    byTool.set(capability, list);
  }
  const decisions = new Map<string, GateDecision>();
  for (const [capability, batch] of byTool) {
    const decision = await deps.gate.checkBatch(toGateSession(session), capability, batch, newestImage(session.history), signal);
    for (const call of batch) decisions.set(call.id, decision);
  }
  return decisions;
}

/** The newest image in the conversation: the screen the model last looked at. */
function newestImage(history: readonly Message[]): ImageBlock | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    const blocks = m.role === "tool" ? m.content.flatMap((r) => r.content) : m.role === "user" ? m.content : [];
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j]!;
      if (b.type === "image") return b;
    }
  }
  return undefined;
}
