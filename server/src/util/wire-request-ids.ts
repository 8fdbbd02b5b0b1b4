/**
 * Random JSON-RPC ids on the wire for the requests the server sends. JSON-RPC libraries number
 * their requests from 1 on every connection, so an editor still holding a prompt of an earlier
 * server (or connection) could answer it to this one with an id that names one of this server's
 * requests, and the answer would settle a request it was never meant for. Each request the
 * server sends goes out under a random id instead; its answer is routed back by that id, and an
 * answer whose id names no request this connection sent (or one already answered) is refused.
 */
import { newRequestId } from "./request-id.js";

type Id = number | string;
type Message = { id?: Id | null; method?: string; params?: unknown };

/** How a protocol withdraws a request, and what to do with an answer no request is waiting for. */
export interface WireIdOptions {
  /** The cancel notification's method (`$/cancelRequest` in LSP, `$/cancel_request` in ACP). */
  cancelMethod: string;
  /** The param of that notification naming the request (`id` in LSP, `requestId` in ACP). */
  cancelParam: string;
  /** Called with the id of an answer that was refused. */
  onStray(id: Id): void;
  /** Requests remembered while unanswered; the oldest are forgotten past it. */
  max?: number;
}

/** Rewrites outgoing request ids to random ones and incoming answers back. */
export class WireRequestIds {
  private readonly local = new Map<string, Id>();
  private readonly wire = new Map<Id, string>();
  private readonly max: number;

  constructor(private readonly options: WireIdOptions) {
    this.max = options.max ?? 10_000;
  }

  /** A message about to be written: a request gets its random id, a cancel names it. */
  outgoing<T extends object>(message: T): T {
    const m = message as Message;
    if (typeof m.method !== "string") return message;
    if (m.id !== undefined && m.id !== null) return { ...message, id: this.remember(m.id) };
    if (m.method !== this.options.cancelMethod || !isRecord(m.params)) return message;
    const wireId = this.wire.get(m.params[this.options.cancelParam] as Id);
    return wireId === undefined ? message : { ...message, params: { ...m.params, [this.options.cancelParam]: wireId } };
  }

  /** A message read: an answer gets its request's own id back; undefined when it is refused. */
  incoming<T extends object>(message: T): T | undefined {
    const m = message as Message;
    if (typeof m.method === "string" || m.id === undefined || m.id === null) return message;
    const localId = typeof m.id === "string" ? this.local.get(m.id) : undefined;
    if (localId === undefined) {
      this.options.onStray(m.id);
      return undefined;
    }
    this.local.delete(m.id as string);
    this.wire.delete(localId);
    return { ...message, id: localId };
  }

  private remember(localId: Id): string {
    const wireId = newRequestId();
    this.local.set(wireId, localId);
    this.wire.set(localId, wireId);
    for (const [oldWire, oldLocal] of this.local) {
      if (this.local.size <= this.max) break;
      this.local.delete(oldWire);
      this.wire.delete(oldLocal);
    }
    return wireId;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
