/**
 * What waits for an answer to have been written, for both front ends: updates about a session
 * follow its id, and the runtime's load (a long synchronous stretch) starts only once the new
 * session's answer is out, not between the handler's return and the write. A front end's writer
 * calls {@link WrittenAnswers.written} after each message has gone out.
 */

/** A written message as far as this cares: a response carries no method. */
type Written = { method?: unknown; id?: unknown; result?: unknown };

/** Callbacks due once a response they recognise has been written. */
export class WrittenAnswers {
  private readonly waiting: Array<{ matches: (message: Written) => boolean; then: () => void }> = [];

  /** Calls `then` once a response for which `matches` holds has been written. */
  after(matches: (message: Written) => boolean, then: () => void): void {
    this.waiting.push({ matches, then });
  }

  /** Calls `then` once the answer to request `id` has been written (soon, when there is no id). */
  afterAnswerTo(id: unknown, then: () => void): void {
    if (id === undefined || id === null) setImmediate(then);
    else this.after((message) => message.id === id, then);
  }

  /** To be called with each message once it has been written. */
  written(message: Written): void {
    if (!this.waiting.length || message.method !== undefined) return;
    const due = this.waiting.filter((w) => w.matches(message));
    if (!due.length) return;
    for (const w of due) this.waiting.splice(this.waiting.indexOf(w), 1);
    setImmediate(() => {
      for (const w of due) w.then();
    });
  }
}
