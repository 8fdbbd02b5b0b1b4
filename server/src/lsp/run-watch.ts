/**
 * What a run started through workspace/executeCommand sees of its session's stream: the answer,
 * one paragraph per model call, the steps that did not happen, and the files changed. Plain
 * clients get it back as the run's $/progress (tool calls and status lines as they happen) and
 * a window/showMessage summary.
 */
import type { ProgressHandle } from "../editor/session-ui.js";
import type { SessionEvents } from "../editor/session-events.js";

/** Why a tool call did not happen, in the words the summary uses. */
export type NotDoneKind = "declined" | "refused" | "cancelled" | "failed";

/** A tool call that did not happen. */
export interface NotDone {
  title: string;
  kind: NotDoneKind;
  /** The first sentence of the tool's answer. */
  reason: string;
}

/** What a run saw of its session's stream. */
export interface RunWatch {
  readonly files: string[];
  readonly notDone: NotDone[];
  /** The answer: each model call's text as its own paragraph(s). */
  answer(): string;
  /** What the run's model calls cost in US dollars, when their price is known. */
  cost(): number | undefined;
  stop(): void;
}

/** Follows a session's updates during one run: progress per tool call, answer text, files, failures. */
export function watchRun(events: SessionEvents, sessionId: string, progress: ProgressHandle): RunWatch {
  // Text streams as deltas of one model call; a tool call ends that call's paragraph, so the
  // next call's text never runs on into the previous sentence.
  const paragraphs: string[] = [];
  let current = "";
  const files = new Set<string>();
  const titles = new Map<string, string>();
  const notDone: NotDone[] = [];
  let cost: number | undefined;
  const stop = events.subscribe((_id, update) => {
    // A subagent's steps are its parent call's (its cost still counts).
    if (update.kind !== "turn_end" && update.kind !== "usage" && update.parentToolCallId) return;
    if (update.kind === "text") current += update.text;
    else if (update.kind === "usage" && update.cost !== undefined) cost = (cost ?? 0) + update.cost;
    else if (update.kind === "tool_call") {
      if (current.trim()) paragraphs.push(current.trim());
      current = "";
      titles.set(update.id, update.title);
      progress.report(update.title);
    } else if (update.kind === "status") {
      // Waiting for the user, retrying the model...: a plain client sees it only here.
      progress.report(update.text);
    } else if (update.kind === "tool_call_update") {
      for (const f of changedFiles(update.diff)) files.add(f);
      if (update.status !== "failed") return;
      const title = titles.get(update.id) ?? "A step";
      const step = { title, ...classifyFailure(update.output ?? "") };
      notDone.push(step);
      progress.report(`${title}: ${step.kind}`);
    }
  }, sessionId);
  return {
    get files() {
      return [...files];
    },
    notDone,
    answer: () => [...paragraphs, current.trim()].filter(Boolean).join("\n\n"),
    cost: () => cost,
    stop,
  };
}

/**
 * Why a tool call failed, from the reason the core wrote for the model: the approver says "The
 * user declined", the mode and the safety check say "not allowed" / "refused", a cancel says
 * "Cancelled"; anything else is a failure of the tool itself.
 */
function classifyFailure(output: string): { kind: NotDoneKind; reason: string } {
  const reason = firstSentence(output);
  if (/\bThe user declined\b/.test(output)) return { kind: "declined", reason };
  if (/^Cancelled\b|\bCancelled by the user\b/.test(output)) return { kind: "cancelled", reason };
  if (/\bis not allowed\b|\bsafety check refused\b|\bnot allowed:/.test(output)) return { kind: "refused", reason };
  return { kind: "failed", reason };
}

function firstSentence(text: string, max = 160): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/** The paths named by a unified diff's `+++` lines (new files included, deletions not). */
export function changedFiles(diff: string | undefined): string[] {
  if (!diff) return [];
  const out: string[] = [];
  for (const m of diff.matchAll(/^\+\+\+ (?:b\/)?([^\t\n]+)/gm)) {
    const name = m[1]!.trim();
    if (name !== "/dev/null") out.push(name);
  }
  return out;
}
