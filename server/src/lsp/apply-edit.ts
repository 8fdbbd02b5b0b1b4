/**
 * workspace/applyEdit for the core: builds the edit against the server's view, sends it with a
 * deadline and the turn's cancel ($/cancelRequest), and follows what the editor's reports show
 * (edit-tracker.ts). An answer of applied counts as applied; the reports that come within a
 * short window are returned with it, later ones reach the session as notices.
 */
import type { ApplyWorkspaceEditResult, Connection } from "vscode-languageserver/node.js";
import { ApplyWorkspaceEditRequest } from "./lsp-library.js";
import type { ApplyEditOptions, ApplyEditResult, EditReport, FileChange } from "../editor/document-host.js";
import type { Logger } from "../util/log.js";
import { sendWithdrawable, type RequestOutcome } from "./client-requests.js";
import type { EditTracker, TrackedEdit } from "./edit-tracker.js";
import { buildWorkspaceEdit, type DocumentLookup } from "./workspace-edit.js";

/** Timing of edits; the server sets it from config, tests shorten it. */
export interface ApplyEditSettings {
  /** How long the editor may take to answer an applyEdit (config `apply_edit_timeout_s`). */
  timeoutMs: number;
  /**
   * How long to wait for the editor's report after it answered, so the result can say
   * "confirmed"; editors that report promptly do within it. Not waited once an editor has been
   * seen to report later than this.
   */
  reportWindowMs: number;
}

/** What applying needs from the editor around it. */
export interface ApplyEditContext {
  connection: Connection;
  documents: DocumentLookup;
  tracker: EditTracker;
  settings: ApplyEditSettings;
  log: Logger;
  /** Shows "waiting for the editor..." to the session when the answer is slow; returns a stop. */
  waitNotice(sessionId: string | undefined): () => void;
}

/** Applies `changes` as one workspace/applyEdit. */
export async function applyWorkspaceEdit(ctx: ApplyEditContext, label: string, changes: FileChange[], options: ApplyEditOptions): Promise<ApplyEditResult> {
  if (!options.quiet) await awaitEarlierReports(ctx, changes);
  const built = await buildWorkspaceEdit(changes, ctx.documents);
  if ("conflict" in built) return { applied: false, reason: built.conflict };
  const tracked = built.edited.map((e) => ctx.tracker.begin(e.uri, e.base, e.expected, options.sessionId, options.quiet));
  const stopNotice = ctx.waitNotice(options.sessionId);
  const sent = sendWithdrawable(options.signal, ctx.settings.timeoutMs, (token) =>
    ctx.connection.sendRequest(ApplyWorkspaceEditRequest.type, { label, edit: built.edit }, token),
  );
  // A report that shows the edit landed settles it as well as an answer: some editors report
  // first, one (Vim's ALE) never answers. A quiet caller (the chat file) follows the document
  // itself: any report is enough for it to look again.
  const reported = options.quiet ? reportedFirst(ctx, tracked) : new Promise<never>(() => undefined);
  const outcome = await Promise.race([sent.outcome, landedByReport(ctx, tracked), reported]);
  stopNotice();
  if (outcome.kind === "reported") {
    for (const edit of tracked) ctx.tracker.refused(edit); // followed by the caller from here
    return { applied: false, unanswered: true, reason: "The editor reported the document before it answered." };
  }
  if (outcome.kind === "cancelled" || outcome.kind === "timeout") return unanswered(ctx, tracked, outcome.note, sent.late);
  const answer = readAnswer(outcome);
  if (!answer.applied) {
    for (const edit of tracked) ctx.tracker.refused(edit);
    return { applied: false, reason: answer.reason };
  }
  for (const edit of tracked) ctx.tracker.applied(edit);
  const reports = await collectReports(ctx, tracked);
  for (const edit of tracked) ctx.tracker.returned(edit);
  return { applied: true, reports };
}

/** Resolves at the next report of the edited documents: "applied" when it shows the edits, else "reported". */
function reportedFirst(ctx: ApplyEditContext, tracked: TrackedEdit[]): Promise<RequestOutcome | { kind: "reported" }> {
  return Promise.race(tracked.map((edit) => ctx.tracker.nextReport(edit.uri))).then(() =>
    tracked.every((edit) => edit.settlement === "landed") ? { kind: "answer" as const, value: { applied: true } } : { kind: "reported" as const },
  );
}

/** Resolves as an "applied" answer once every edited document's report shows the edit; never otherwise. */
function landedByReport(ctx: ApplyEditContext, tracked: TrackedEdit[]): Promise<RequestOutcome> {
  return new Promise((resolve) => {
    void Promise.all(tracked.map((edit) => ctx.tracker.settled(edit))).then((settlements) => {
      if (tracked.length && settlements.every((s) => s === "landed")) resolve({ kind: "answer", value: { applied: true } });
    });
  });
}

/**
 * An edit on top of one whose report is still due waits a little for that report, so it goes
 * with the version the editor really has; a late-reporting editor is not waited for (its
 * version stays unknown and the edit goes unversioned, checked against the view's text).
 */
async function awaitEarlierReports(ctx: ApplyEditContext, changes: FileChange[]): Promise<void> {
  if (ctx.tracker.lateReporter) return;
  const earlier = changes.flatMap((c) => (c.kind === "edit" ? ctx.tracker.pendingOf(c.uri) : []));
  await Promise.all(earlier.map((edit) => ctx.tracker.waitForReport(edit, ctx.settings.reportWindowMs)));
}

/** Waits (within the window) for each edited document's report and returns what they show. */
async function collectReports(ctx: ApplyEditContext, tracked: TrackedEdit[]): Promise<Record<string, EditReport>> {
  if (!ctx.tracker.lateReporter) {
    await Promise.all(tracked.map((edit) => ctx.tracker.waitForReport(edit, ctx.settings.reportWindowMs)));
  }
  return Object.fromEntries(tracked.map((edit) => [edit.uri, ctx.tracker.report(edit)]));
}

/** No answer in time (or a cancel): say so; the next report, or a late answer, tells the rest. */
function unanswered(ctx: ApplyEditContext, tracked: TrackedEdit[], note: string, late: Promise<RequestOutcome>): ApplyEditResult {
  for (const edit of tracked) {
    ctx.tracker.unanswered(edit);
    ctx.tracker.returned(edit);
  }
  void late.then((outcome) => {
    const answer = readAnswer(outcome);
    if (answer.applied) return; // its report settles it
    ctx.log.info(`a withdrawn applyEdit was answered late: not applied (${answer.reason})`);
    for (const edit of tracked) ctx.tracker.refusedLate(edit);
  });
  return { applied: false, unanswered: true, reason: note };
}

function readAnswer(outcome: RequestOutcome): { applied: true } | { applied: false; reason: string } {
  if (outcome.kind === "answer") {
    const res = outcome.value as ApplyWorkspaceEditResult | null;
    if (res?.applied) return { applied: true };
    return { applied: false, reason: res?.failureReason ? `The editor refused the edit: ${res.failureReason}` : "The editor refused the edit." };
  }
  if (outcome.kind === "error") return { applied: false, reason: `The editor could not apply the edit: ${(outcome.error as Error).message}` };
  return { applied: false, reason: outcome.note };
}
