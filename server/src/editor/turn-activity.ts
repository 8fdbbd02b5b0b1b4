/**
 * What a headless turn is doing, from its updates, for the status line: waiting for the model,
 * the model thinking or writing, which tools run and since when, a retry's wait; a progress
 * report (MCP servers starting, a long command's output) shows over it until it is done.
 */
import type { SessionUpdate } from "../protocol/updates.js";
import type { StatusLine } from "./status-line.js";

const WAITING = "waiting for the model";

/** A progress report shown over the turn's activity. */
export interface ActivityOverlay {
  set(text: string): void;
  clear(): void;
}

/** The turn's activity, shown on a status line. */
export class TurnActivity {
  /** Tool calls running, by id: their titles. */
  private readonly running = new Map<string, string>();
  private base: { text: string; timed: boolean } | undefined;
  private readonly overlays: { text: string }[] = [];

  constructor(private readonly status: StatusLine) {}

  /** A turn started: the model is being waited for, or `first` (a command) runs. */
  started(first = WAITING): void {
    this.running.clear();
    this.base = { text: first, timed: true };
    this.show();
  }

  /** The turn ended: nothing to show. */
  ended(): void {
    this.running.clear();
    this.base = undefined;
    this.overlays.length = 0;
    this.status.stop();
  }

  /**
   * A top-level update of the turn. `sharedScreen`: the answer streams to the same terminal, so
   * while the model writes its line is left alone.
   */
  update(update: SessionUpdate, sharedScreen: boolean): void {
    if (this.base === undefined) return; // not in a turn (a command's message, a replay)
    switch (update.kind) {
      case "text":
        this.base = sharedScreen ? undefined : { text: "the model is writing", timed: false };
        if (sharedScreen) this.status.stop();
        break;
      case "thought":
        this.base = { text: "the model is thinking", timed: true };
        break;
      case "tool_call":
        this.running.set(update.id, update.title);
        this.base = this.toolsText();
        break;
      case "tool_call_update":
        if (update.status !== "completed" && update.status !== "failed") return;
        this.running.delete(update.id);
        this.base = this.running.size ? this.toolsText() : { text: WAITING, timed: true };
        break;
      case "status":
        // A retry's wait (provider-call.ts) says how long; anything else is only a line.
        if (update.text.startsWith("retrying")) this.base = { text: update.text, timed: false };
        break;
      default:
        return;
    }
    this.show();
  }

  /** Shows `title` over the activity until the returned overlay is cleared. */
  overlay(title: string): ActivityOverlay {
    const entry = { text: title };
    this.overlays.push(entry);
    this.show();
    return {
      set: (text) => {
        entry.text = text;
        this.show();
      },
      clear: () => {
        const at = this.overlays.indexOf(entry);
        if (at !== -1) this.overlays.splice(at, 1);
        this.show();
      },
    };
  }

  /** The tools running: the first one's title and elapsed time, and how many more run beside it. */
  private toolsText(): { text: string; timed: boolean } {
    const [first] = this.running.values();
    const more = this.running.size > 1 ? ` (+${this.running.size - 1} more)` : "";
    return { text: `${first}${more}`, timed: true };
  }

  private show(): void {
    const top = this.overlays.at(-1);
    if (top) this.status.set(top.text, false);
    else if (this.base) this.status.set(this.base.text, this.base.timed);
    else this.status.stop();
  }
}
