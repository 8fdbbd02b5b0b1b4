/**
 * Runs a model's tool calls, in order, through the gate: each call is announced (pending),
 * decided, run with the turn's abort signal, and reported (completed/failed) to the editor.
 */
import path from "node:path";
import type { Editor } from "../../editor/editor.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { ToolCallBlock, ToolResultBlock } from "../../vocabulary/messages.js";
import type { GateCall, GateSession, ToolGate } from "../../policy/types.js";
import type { ToolRegistry } from "../../tools/registry.js";
import type { Capability, ToolBatch, ToolResult, ToolServices } from "../../tools/types.js";
import type { GateDecision } from "../../vocabulary/policy.js";
import { ReviewGroup } from "../../policy/review-group.js";
import { decideBatchInputs, isBatchGated, newBatch } from "./batch-gate.js";
import type { ToolCallFacts } from "../../protocol/updates.js";
import type { Session } from "../session.js";
import { callFacts, fileDiffs, modelFacts } from "./tool-call-facts.js";
import { withEditDiagnostics } from "../../tools/language/edit-diagnostics.js";
import { configFrom } from "../../tools/tool-config.js";
import { profileAdmits, type ToolProfile } from "../../tools/profiles.js";
import { boundedInput } from "../../util/bounded-input.js";
import { mcpManagerFrom } from "../../mcp/manager.js";

/** What running tools needs. */
export interface ToolRunnerDeps {
  editor: Editor;
  /** Where the calls' progress is streamed. */
  events: SessionEvents;
  registry: ToolRegistry;
  gate: ToolGate;
  services: ToolServices;
  outputBudget: number;
  /** `[tools] profile`: which tools are offered (standard when absent). */
  profile?: ToolProfile;
}

/** What a batch of calls came to: one result per call, and whether a call ended the turn. */
export interface BatchOutcome {
  results: ToolResultBlock[];
  /** A call (attempt_completion, a phase report the user stopped at) asked to end the turn. */
  endTurn: boolean;
  /** Why agent-lsp's own state could not be written, when a call found that out: the turn fails with it. */
  fault?: string;
}

/**
 * Runs every call; returns one result per call, in the same order. Consecutive read-only calls
 * (reads, searches, listings) run side by side once the gate has passed each of them, one after
 * another so prompts never overlap. Consecutive file changes to different files run side by side
 * too, so that the user reviews them in one prompt (policy/review-group.ts). Anything else that
 * may change something runs alone, in order.
 */
export async function runToolCalls(
  session: Session,
  calls: ToolCallBlock[],
  deps: ToolRunnerDeps,
  signal: AbortSignal,
  /** Calls answered without running (a rewrite refused them), by call id. */
  answers: ReadonlyMap<string, ToolResult> = new Map(),
): Promise<ToolResultBlock[]> {
  return (await runToolBatch(session, calls, deps, signal, answers)).results;
}

/** As runToolCalls, and says whether a call asked to end the turn. */
export async function runToolBatch(
  session: Session,
  calls: ToolCallBlock[],
  deps: ToolRunnerDeps,
  signal: AbortSignal,
  answers: ReadonlyMap<string, ToolResult> = new Map(),
): Promise<BatchOutcome> {
  const results: ToolResultBlock[] = [];
  let endTurn = false;
  let fault: string | undefined;
  // The calls of one model message are one batch: batch-gated tools are decided here, once.
  const batch: RunBatch = { ...newBatch(session), decisions: signal.aborted ? new Map() : await decideBatchInputs(session, calls, deps, signal) };
  for (let i = 0; i < calls.length; ) {
    const changes = fileChangeRun(calls, i, deps.registry, answers, session.root);
    const group = changes.length > 1 ? changes : readOnlyRun(calls, i, deps.registry, answers);
    const review = changes.length > 1 ? new ReviewGroup(changes.map((c) => c.id)) : undefined;
    const runs: (() => Promise<ToolResult>)[] = [];
    for (const call of group) {
      const run = await prepare(session, call, deps, signal, answers.get(call.id), batch, review);
      runs.push(review ? () => run().finally(() => review.leave(call.id)) : run);
    }
    const outcomes = await Promise.all(runs.map((run) => run()));
    group.forEach((call, k) => {
      const result = outcomes[k]!;
      endTurn ||= result.endTurn === true;
      fault ??= result.fault;
      const content = [...result.content, ...editorNotices(deps.editor, session.id)];
      results.push({ type: "tool_result", toolCallId: call.id, name: call.name, isError: result.isError, content });
    });
    i += group.length;
  }
  return { results, endTurn, ...(fault ? { fault } : {}) };
}

/**
 * The tools a session is offered: what the gate's filter admits for its trust and mode, within
 * the profile, less what the session withholds (delegation inside a subagent, spawn_task inside
 * a spawned task). A call to any other tool is answered as one to a tool that does not exist.
 */
export function offeredTools(session: Session, deps: Pick<ToolRunnerDeps, "registry" | "gate" | "profile">): Capability[] {
  return deps.registry
    .list(deps.gate.filter(toGateSession(session)))
    .filter((c) => !session.withheldCategories.has(c.category) && !session.withheldTools.has(c.name) && profileAdmits(deps.profile, c));
}

/** The calls from `start` that may run together: a run of read-only calls, or the one call there. */
function readOnlyRun(calls: ToolCallBlock[], start: number, registry: ToolRegistry, answers: ReadonlyMap<string, ToolResult>): ToolCallBlock[] {
  const readOnly = (call: ToolCallBlock) => {
    const capability = registry.find(call.name);
    return !answers.has(call.id) && capability !== undefined && capability.policyClass === "read_only" && !capability.isMutating;
  };
  let end = start + 1;
  if (readOnly(calls[start]!)) while (end < calls.length && readOnly(calls[end]!)) end++;
  return calls.slice(start, end);
}

/**
 * The calls from `start` that change files and may run side by side: consecutive file changes
 * (edit, delete, move) whose paths are all known and all different, so no call's change is
 * planned over text another is about to change. Fewer than two: none.
 */
function fileChangeRun(calls: ToolCallBlock[], start: number, registry: ToolRegistry, answers: ReadonlyMap<string, ToolResult>, root: string): ToolCallBlock[] {
  const seen = new Set<string>();
  const run: ToolCallBlock[] = [];
  for (const call of calls.slice(start)) {
    const capability = registry.find(call.name);
    if (answers.has(call.id) || !capability || capability.policyClass !== "read_write" || !FILE_CHANGE_KINDS.has(capability.callKind ?? "")) break;
    const paths = (callFacts(capability, call.input, root).locations ?? []).map((l) => path.resolve(root, l.path));
    if (!paths.length || paths.some((p) => seen.has(p))) break;
    for (const p of paths) seen.add(p);
    run.push(call);
  }
  return run.length > 1 ? run : [];
}

const FILE_CHANGE_KINDS = new Set<string>(["edit", "delete", "move"]);

/** A batch and the gate's decisions for its batch-gated calls, by call id. */
type RunBatch = ToolBatch & { decisions: Map<string, GateDecision> };

/**
 * Announces a call and passes it through the gate; returns what runs it (or what answers it
 * without running: a preset answer, a cancel, an unknown tool, the gate's refusal).
 */
async function prepare(
  session: Session,
  call: ToolCallBlock,
  deps: ToolRunnerDeps,
  signal: AbortSignal,
  preset: ToolResult | undefined,
  batch: RunBatch,
  review?: ReviewGroup,
): Promise<() => Promise<ToolResult>> {
  const answered = (result: ToolResult) => async () => result;
  if (preset) {
    announce(deps.events, session, call, call.native?.name ?? call.name, modelFacts(call));
    finish(deps.events, session, call.id, preset);
    return answered(preset);
  }
  if (signal.aborted) return answered({ isError: true, content: [{ type: "text", text: "Cancelled: not run." }] });
  const { events } = deps;
  const capability = deps.registry.find(call.name);
  const gateSession = toGateSession(session);
  const offered = capability && offeredTools(session, deps).includes(capability);
  if (!capability || !offered) {
    const result = unknownTool(call.name, offeredTools(session, deps), deps.services);
    announce(events, session, call, call.name, { ...callFacts(undefined, call.input, session.root), ...modelFacts(call) });
    finish(events, session, call.id, result);
    return answered(result);
  }
  // The model's own name and input ride along: the chat and the approval show the call as written.
  const facts = { ...callFacts(capability, call.input, session.root), ...modelFacts(call) };
  const gateCall: GateCall = { id: call.id, name: call.name, title: capability.title(call.input), input: call.input, facts, ...(review ? { review } : {}) };
  announce(events, session, call, gateCall.title, facts);
  // A batch-gated tool's input calls were decided with their batch; its looking calls need no one.
  const decision = isBatchGated(capability)
    ? (batch.decisions.get(call.id) ?? { allowed: true })
    : await deps.gate.check(gateSession, gateCall, capability, signal);
  if (!decision.allowed) {
    const result: ToolResult = { isError: true, content: [{ type: "text", text: decision.reason }], ...(decision.declined ? { declined: true } : {}) };
    finish(events, session, call.id, result);
    return answered(result);
  }
  return () => execute(session, call, gateCall, capability, deps, signal, batch);
}

/**
 * What the editor learned since the model's last input (an edit it had said it applied turned
 * out not to be there, an unanswered one landed...), as one text block for the model's next
 * input, so it never goes on from a wrong picture of a file.
 */
export function editorNotices(editor: Editor, sessionId: string): { type: "text"; text: string }[] {
  const notices = editor.takeNotices(sessionId);
  return notices.length ? [{ type: "text", text: notices.map((n) => `Note from the editor: ${n}`).join("\n") }] : [];
}

/** Runs a call the gate allowed, and reports how it ended. */
async function execute(
  session: Session,
  call: ToolCallBlock,
  gateCall: GateCall,
  capability: Capability,
  deps: ToolRunnerDeps,
  signal: AbortSignal,
  batch: ToolBatch,
): Promise<ToolResult> {
  const { editor, events } = deps;
  events.emit(session.id, { kind: "tool_call_update", id: call.id, status: "running" });
  // A No from the user to what the tool asked mid-run fails the call: it shows as declined.
  let declinedByUser = false;
  const ran = await capability.execute(call.input, {
    workspace: session.workspace,
    editor,
    sessionId: session.id,
    toolCallId: call.id,
    signal,
    outputBudget: deps.outputBudget,
    authorize: async (action) => {
      // While the gate decides (and perhaps asks the user) the call is pending again.
      events.emit(session.id, { kind: "tool_call_update", id: call.id, status: "pending" });
      const decision = await deps.gate.authorize(toGateSession(session), gateCall, capability, action, signal);
      if (decision.allowed) events.emit(session.id, { kind: "tool_call_update", id: call.id, status: "running" });
      else if (decision.declined) declinedByUser = true;
      return decision;
    },
    progress: (output) => events.emit(session.id, { kind: "tool_call_update", id: call.id, status: "running", output }),
    emit: events.for(session.id),
    services: deps.services,
    batch: { id: batch.id, userMessages: batch.userMessages },
    ...(call.native ? { nativeTool: call.native.name } : {}),
  });
  const result = await afterEdit(declinedByUser && ran.isError ? { ...ran, declined: true } : ran, session, deps, signal);
  finish(events, session, call.id, result);
  return result;
}

/** The result with the changed files' diagnostics from the editor, when configured (tools/language/edit-diagnostics.ts). */
function afterEdit(result: ToolResult, session: Session, deps: ToolRunnerDeps, signal: AbortSignal): Promise<ToolResult> {
  const { tools } = configFrom(deps.services);
  if (!tools.diagnostics_after_edit) return Promise.resolve(result);
  return withEditDiagnostics(result, { service: deps.editor.languageService, root: session.workspace.root, waitMs: tools.diagnostics_wait_ms, signal });
}

/** What the gate knows of a session: read afresh each time, as mode and trust can change mid-turn. */
export function toGateSession(session: Session): GateSession {
  return { sessionId: session.id, mode: session.mode, trust: session.trust, root: session.root };
}

function announce(events: SessionEvents, session: Session, call: ToolCallBlock, title: string, facts: ToolCallFacts = {}): void {
  events.emit(session.id, { kind: "tool_call", id: call.id, name: call.name, title, input: boundedInput(call.input), status: "pending", ...facts });
}

function finish(events: SessionEvents, session: Session, id: string, result: ToolResult): void {
  events.emit(session.id, {
    kind: "tool_call_update",
    id,
    status: result.isError ? "failed" : "completed",
    ...(result.declined ? { declined: true } : {}),
    output: summarize(result),
    ...(result.diff ? { diff: result.diff, files: fileDiffs(result.diff) } : {}),
  }, result.texts ? { texts: result.texts } : undefined);
}

/**
 * A call of a tool the session does not offer. When it is the tool of a configured MCP server that
 * is not ready (starting, restarting, needing a sign-in), that is the answer, not the list of
 * every other tool.
 */
function unknownTool(name: string, offered: Capability[], services: ToolServices): ToolResult {
  const manager = name.startsWith("mcp__") ? mcpManagerFrom(services) : undefined;
  const server = manager?.configured() ? manager.serverOfTool(name) : undefined;
  const connection = server !== undefined ? manager!.connection(server) : undefined;
  if (connection && connection.state !== "ready") {
    return { isError: true, content: [{ type: "text", text: `There is no tool "${name}" now: ${connection.unavailableReason()}.` }] };
  }
  const names = offered.map((c) => c.name);
  return {
    isError: true,
    content: [{ type: "text", text: `There is no tool "${name}" in this session. Available: ${names.join(", ") || "none"}.` }],
  };
}

/** The first lines of a result, for the editor's one-line view. */
export function summarize(result: ToolResult, max = 2000): string {
  const parts = result.content.map((b) => (b.type === "text" ? b.text : `[${b.mediaType} image]`));
  const text = parts.join("\n");
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
