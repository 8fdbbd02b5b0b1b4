/**
 * Fair scheduling of incoming messages: each message goes into a lane (one per session, one for
 * everything else), lanes take turns, and one message is handed on per turn of the event loop. A
 * burst of thousands of requests on one session then delays a request in another lane by a
 * message or two instead of the whole burst, while order within a lane is kept.
 *
 * A barrier (document sync: `textDocument/didChange` and the like) is never overtaken: nothing
 * pushed after it is taken before it, so a prompt the editor sent after a change of a buffer
 * always finds the change applied, however many changes were waiting.
 */

interface Lane<T> {
  items: Array<{ item: T; seq: number }>;
  head: number;
}

/** Queues of items by lane, taken round robin; order within a lane is kept. */
export class FairQueue<T> {
  /** Lanes with items, in turn order (a Map keeps insertion order; a served lane goes last). */
  private readonly lanes = new Map<string, Lane<T>>();
  private count = 0;
  private nextSeq = 0;
  /** The sequence numbers of waiting barriers, oldest first from `barrierHead`. */
  private barriers: number[] = [];
  private barrierHead = 0;

  /** Items waiting in every lane. */
  get size(): number {
    return this.count;
  }

  /** Whether `lane` has items waiting. */
  has(lane: string): boolean {
    return this.lanes.has(lane);
  }

  /** Queues `item` at the end of `lane`; a `barrier` is taken before anything pushed after it. */
  push(lane: string, item: T, barrier = false): void {
    const entry = { item, seq: this.nextSeq++ };
    const queue = this.lanes.get(lane);
    if (queue) queue.items.push(entry);
    else this.lanes.set(lane, { items: [entry], head: 0 });
    if (barrier) this.barriers.push(entry.seq);
    this.count++;
  }

  /**
   * The next item: the head of the first lane in turn order whose head came before the oldest
   * waiting barrier. The lane holding that barrier always qualifies (its items before it are
   * older), so a waiting item is always found.
   */
  shift(): T | undefined {
    const limit = this.barrierHead < this.barriers.length ? this.barriers[this.barrierHead]! : Number.POSITIVE_INFINITY;
    for (const [name, lane] of this.lanes) {
      const entry = lane.items[lane.head]!;
      if (entry.seq > limit) continue;
      lane.head++;
      this.count--;
      if (entry.seq === limit) this.takeBarrier();
      this.lanes.delete(name);
      // An index instead of Array.shift, which moves the rest of a long lane on every call.
      if (lane.head < lane.items.length) this.lanes.set(name, lane);
      return entry.item;
    }
    return undefined;
  }

  private takeBarrier(): void {
    this.barrierHead++;
    if (this.barrierHead === this.barriers.length) {
      this.barriers = [];
      this.barrierHead = 0;
    }
  }
}

/** Where an incoming message goes: its lane, and lanes it is repeated at the end of. */
export interface Route {
  lane: string;
  /**
   * Lanes to also put the message at the end of when they have messages waiting: a cancel runs
   * at once, and again after the prompts of its session it overtook, as it would have in order.
   */
  alsoAfter?: string[];
  /** Nothing that arrives after it may be handed on before it (document sync). */
  barrier?: boolean;
}

/** The lane of messages that belong to no session. */
export const MAIN_LANE = "";

/**
 * Hands messages to `deliver` one per turn of the event loop (`setImmediate`), lanes in turn. A
 * message that finds nothing waiting is handed on at once, so a quiet connection keeps its order
 * and its latency exactly.
 */
export class FairPacer<T> {
  private readonly queue = new FairQueue<T>();
  private ticking = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly deliver: (item: T) => void,
    private readonly route: (item: T) => Route,
  ) {}

  push(item: T): void {
    const { lane, alsoAfter = [], barrier = false } = this.route(item);
    const repeatAfter = alsoAfter.filter((l) => this.queue.has(l));
    if (this.ticking) this.queue.push(lane, item, barrier);
    else this.handOn(item);
    for (const l of repeatAfter) this.queue.push(l, item);
  }

  /** Calls `fn` once every message pushed so far has been handed on (the stream closing after them). */
  whenDelivered(fn: () => void): void {
    if (this.ticking) this.idle.push(fn);
    else fn();
  }

  private handOn(item: T): void {
    this.ticking = true;
    setImmediate(() => this.tick());
    this.deliver(item);
  }

  private tick(): void {
    this.ticking = false;
    if (this.queue.size) return this.handOn(this.queue.shift()!);
    for (const fn of this.idle.splice(0)) fn();
  }
}

/** Notifications that change what the agent reads: buffers, watched files, settings, folders. */
const DOCUMENT_SYNC = /^(textDocument|notebookDocument|workspace)\//;

/** The session a JSON-RPC message names in `params.sessionId`, if any. */
export function sessionOf(message: object): string | undefined {
  const params = (message as { params?: unknown }).params;
  const id = params && typeof params === "object" ? (params as { sessionId?: unknown }).sessionId : undefined;
  return typeof id === "string" ? id : undefined;
}

/**
 * The route of a JSON-RPC message: a request naming a session goes into that session's lane;
 * `cancelMethod` (a notification naming a session) goes into the main lane and again after its
 * session's waiting messages; everything else (answers, notifications, other requests) goes into
 * the main lane. Document and workspace notifications are barriers: a prompt written after a
 * buffer's change is not handed on before the change.
 */
export function sessionRoute(cancelMethod: string): (message: object) => Route {
  return (message) => {
    const m = message as { id?: unknown; method?: unknown };
    if (typeof m.method === "string" && m.id === undefined && DOCUMENT_SYNC.test(m.method)) return { lane: MAIN_LANE, barrier: true };
    const session = typeof m.method === "string" ? sessionOf(message) : undefined;
    if (session === undefined) return { lane: MAIN_LANE };
    if (m.method === cancelMethod) return { lane: MAIN_LANE, alsoAfter: [`session:${session}`] };
    return { lane: m.id === undefined ? MAIN_LANE : `session:${session}` };
  };
}
