/**
 * Follows each edit sent as workspace/applyEdit until the editor's own reports settle it. An
 * answer of `applied: true` counts as applied: some clients (stock eglot) send the didChange
 * from an idle timer, seconds later or only at the next keystroke, so waiting for it cannot tell
 * a lazy client from one that skipped the edit. What settles an edit is the next report of its
 * document:
 *
 * - a didChange whose changes, applied one by one, pass through the edit's result: it landed
 *   (typing after it in the same didChange does not matter);
 * - a didChange made of ranged changes that never pass through it: the editor's text never had
 *   the edit, so it was skipped (an incremental didChange is the buffer's exact history since
 *   the last one); a whole-text change that is the old text: skipped; any other whole text:
 *   unknown;
 * - a didClose first: it was closed before reporting.
 *
 * Until then the server's view of the document is the edit's result, so the agent reads what it
 * wrote, and its version is unknown (null): LSP clients count a version per buffer change, and
 * one edit can be many changes (Neovim's changedtick, eglot's counter per change), so the
 * version the editor has after an edit cannot be predicted.
 */
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { ChangeWatch } from "./change-journal.js";
import type { EditReport } from "../editor/document-host.js";
import { normalizeUri } from "./uris.js";

/** How a report (or a late answer) settled an edit. */
export type Settlement = "landed" | "skipped" | "unknown" | "closed" | "refused";

/** One document's part of one applyEdit. */
export interface TrackedEdit {
  readonly uri: string;
  /** The text the edit was computed against, and its result. */
  readonly base: string;
  readonly expected: string;
  readonly sessionId?: string;
  /** Its caller follows the document itself: a late settlement is not reported. */
  readonly quiet?: boolean;
  /** The editor's answer to the request. */
  answer: "waiting" | "applied" | "unanswered";
  /** How a report settled it, once one did. */
  settlement?: Settlement;
  /** The applyEdit call has returned: from now on a settlement is news for the session. */
  returned: boolean;
}

/** Called when a report settles an edit after its applyEdit call returned. */
export type LateSettlement = (edit: TrackedEdit, settlement: Settlement) => void;

interface Entry {
  edit: TrackedEdit;
  settled: Promise<void>;
  resolve(): void;
}

/** The edits of every document whose report is still due. */
export class EditTracker {
  private readonly chains = new Map<string, Entry[]>();
  /** Who waits for the next report of a document, by document. */
  private readonly reportWaiters = new Map<string, (() => void)[]>();
  /** A report came after the wait for it had given up: this editor reports late, do not wait. */
  lateReporter = false;

  constructor(private readonly onLate: LateSettlement) {}

  /** Starts following an edit, before the request goes out (its didChange may come before the answer). */
  begin(uri: string, base: string, expected: string, sessionId?: string, quiet = false): TrackedEdit {
    const edit: TrackedEdit = { uri, base, expected, sessionId, quiet, answer: "waiting", returned: false };
    let resolve!: () => void;
    const settled = new Promise<void>((r) => (resolve = r));
    const key = normalizeUri(uri);
    this.chains.set(key, [...(this.chains.get(key) ?? []), { edit, settled, resolve }]);
    return edit;
  }

  /** The editor answered applied. */
  applied(edit: TrackedEdit): void {
    edit.answer = "applied";
  }

  /** The editor refused the edit: nothing to follow. */
  refused(edit: TrackedEdit): void {
    this.drop(edit);
  }

  /** An edit that had no answer in time was answered later: not applied. */
  refusedLate(edit: TrackedEdit): void {
    const entry = this.entryOf(edit);
    if (!entry) return; // a report settled it already
    this.drop(edit);
    this.finish(entry, "refused");
  }

  /** No answer came: the next report says whether it landed after all. */
  unanswered(edit: TrackedEdit): void {
    edit.answer = "unanswered";
  }

  /** The applyCall returned; later settlements are reported through `onLate`. */
  returned(edit: TrackedEdit): void {
    edit.returned = true;
  }

  /** Resolves when a report settles the edit, or after `ms`; says whether it was settled. */
  async waitForReport(edit: TrackedEdit, ms: number): Promise<boolean> {
    const entry = this.entryOf(edit);
    if (!entry) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => (timer = setTimeout(r, ms)));
    await Promise.race([entry.settled, timeout]);
    clearTimeout(timer);
    return edit.settlement !== undefined;
  }

  /** Resolves with how a report settled the edit, once one does. */
  async settled(edit: TrackedEdit): Promise<Settlement | undefined> {
    const entry = this.entryOf(edit);
    if (entry) await entry.settled;
    return edit.settlement;
  }

  /** What the reports show of an edit so far. */
  report(edit: TrackedEdit): EditReport {
    if (!edit.settlement) return "pending";
    return edit.settlement === "landed" ? "confirmed" : edit.settlement === "skipped" ? "skipped" : "unknown";
  }

  /** True while some edit of `uri` the editor said it applied waits for its report. */
  hasUnreported(uri: string): boolean {
    return this.unreported(normalizeUri(uri)) !== undefined;
  }

  /** Edits of `uri` still waiting for a report. */
  pendingOf(uri: string): TrackedEdit[] {
    return (this.chains.get(normalizeUri(uri)) ?? []).map((e) => e.edit);
  }

  /** The server's view of a document: the last applied edit's result while its report is due. */
  view(doc: TextDocument): { text: string; version: number | null } {
    const waiting = this.unreported(normalizeUri(doc.uri));
    return waiting ? { text: waiting.expected, version: null } : { text: doc.getText(), version: doc.version };
  }

  /**
   * Watches one didChange of `uri` as its changes apply one by one, settling the edits it
   * shows; none when no edit of the document waits for a report.
   */
  watchReport(uri: string): ChangeWatch | undefined {
    const chain = this.chains.get(normalizeUri(uri));
    if (!chain?.length) return undefined;
    let seen = -1;
    return {
      step: (text) => {
        seen = Math.max(seen, this.lastMatch(chain, text, seen));
      },
      end: (doc, changes) => {
        const wholeText = changes.some((c) => !("range" in c));
        this.settle(doc.uri, seen, (entry) => (!wholeText || doc.getText() === entry.edit.base ? "skipped" : "unknown"));
        this.wakeReportWaiters(doc.uri);
      },
    };
  }

  /** A didOpen (the editor reopened a document, or opened a moved one under its new name). */
  opened(doc: TextDocument): void {
    const chain = this.chains.get(normalizeUri(doc.uri));
    if (!chain?.length) return;
    const text = doc.getText();
    const seen = this.lastMatch(chain, text, -1);
    // Opened with the text before the first edit: its changes are still to come.
    if (seen === -1 && text === chain[0]!.edit.base) return;
    this.settle(doc.uri, seen, () => "unknown");
  }

  /** A didClose: the edits not reported by now never will be. */
  closed(uri: string): void {
    this.settle(uri, -1, () => "closed");
    this.wakeReportWaiters(uri);
  }

  /** Resolves at the next report (or close) of `uri` that finds an edit of it followed. */
  nextReport(uri: string): Promise<void> {
    const key = normalizeUri(uri);
    return new Promise((resolve) => this.reportWaiters.set(key, [...(this.reportWaiters.get(key) ?? []), resolve]));
  }

  private wakeReportWaiters(uri: string): void {
    const key = normalizeUri(uri);
    const waiters = this.reportWaiters.get(key) ?? [];
    this.reportWaiters.delete(key);
    for (const wake of waiters) wake();
  }

  /** The index of the last edit after `after` whose result is `text`, else `after`. */
  private lastMatch(chain: Entry[], text: string, after: number): number {
    for (let i = chain.length - 1; i > after; i--) if (chain[i]!.edit.expected === text) return i;
    return after;
  }

  /**
   * Settles the chain of `uri`: edits up to `seen` landed; the others that the editor answered
   * (or did not answer) get `otherwise`. Edits still waiting for their answer stay followed:
   * the editor has not applied them yet, so this report cannot show them.
   */
  private settle(uri: string, seen: number, otherwise: (entry: Entry) => Settlement): void {
    const key = normalizeUri(uri);
    const chain = this.chains.get(key) ?? [];
    const keep: Entry[] = [];
    chain.forEach((entry, i) => {
      if (i > seen && entry.edit.answer === "waiting") keep.push(entry);
      else this.finish(entry, i <= seen ? "landed" : otherwise(entry));
    });
    if (keep.length) this.chains.set(key, keep);
    else this.chains.delete(key);
  }

  private finish(entry: Entry, settlement: Settlement): void {
    entry.edit.settlement = settlement;
    entry.resolve();
    if (entry.edit.returned && !entry.edit.quiet) {
      if (settlement === "landed" && entry.edit.answer === "applied") this.lateReporter = true;
      this.onLate(entry.edit, settlement);
    }
  }

  private drop(edit: TrackedEdit): void {
    const key = normalizeUri(edit.uri);
    const chain = (this.chains.get(key) ?? []).filter((e) => e.edit !== edit);
    if (chain.length) this.chains.set(key, chain);
    else this.chains.delete(key);
  }

  private entryOf(edit: TrackedEdit): Entry | undefined {
    return this.chains.get(normalizeUri(edit.uri))?.find((e) => e.edit === edit);
  }

  /** The last edit of a document that the editor answered applied and has not reported. */
  private unreported(key: string): TrackedEdit | undefined {
    return this.chains.get(key)?.filter((e) => e.edit.answer === "applied").at(-1)?.edit;
  }
}
