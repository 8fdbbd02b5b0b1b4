/**
 * Fair scheduling of incoming messages: each message goes into a lane (one per session, one for
 * everything else), lanes take turns, and one message is handed on per turn of the event loop. A
 * burst of thousands of requests on one session then delays a request in another lane by a
 * message or two instead of the whole burst, while order within a lane is kept.
 */

interface Lane<T> {
  items: T[];
  head: number;
}

/** Queues of items by lane, taken round robin; order within a lane is kept. */
export class FairQueue<T> {
  /** Lanes with items, in turn order (a Map keeps insertion order; a served lane goes last). */
  private readonly lanes = new Map<string, Lane<T>>();
  private count = 0;

  /** Items waiting in every lane. */
  get size(): number {
    return this.count;
  }

  /** Whether `lane` has items waiting. */
  has(lane: string): boolean {
    return this.lanes.has(lane);
  }

  push(lane: string, item: T): void {
    const queue = this.lanes.get(lane);
    if (queue) queue.items.push(item);
    else this.lanes.set(lane, { items: [item], head: 0 });
    this.count++;
  }

  /** The next item: the head of the lane whose turn it is. */
  shift(): T | undefined {
    const first = this.lanes.entries().next();
    if (first.done) return undefined;
    const [name, lane] = first.value;
    const item = lane.items[lane.head++]!;
    this.count--;
    this.lanes.delete(name);
    // An index instead of Array.shift, which moves the rest of a long lane on every call.
    if (lane.head < lane.items.length) this.lanes.set(name, lane);
    return item;
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
    const { lane, alsoAfter = [] } = this.route(item);
    const repeatAfter = alsoAfter.filter((l) => this.queue.has(l));
    if (this.ticking) this.queue.push(lane, item);
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
 * the main lane.
 */
export function sessionRoute(cancelMethod: string): (message: object) => Route {
  return (message) => {
    const m = message as { id?: unknown; method?: unknown };
    const session = typeof m.method === "string" ? sessionOf(message) : undefined;
    if (session === undefined) return { lane: MAIN_LANE };
    if (m.method === cancelMethod) return { lane: MAIN_LANE, alsoAfter: [`session:${session}`] };
    return { lane: m.id === undefined ? MAIN_LANE : `session:${session}` };
  };
}
