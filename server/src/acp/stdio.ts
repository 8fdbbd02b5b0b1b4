/**
 * The ACP front end on this process's stdin and stdout. The start-up path (cli/acp.ts) may have
 * read and answered `initialize` already: its bytes are handed back in front of stdin, so the SDK
 * sees every message in order, and the SDK's own answer to that request is dropped.
 */
import * as acp from "@agentclientprotocol/sdk";
import { FileLogger } from "../util/log.js";
import { WireRequestIds } from "../util/wire-request-ids.js";
import { ndJsonStdio } from "./ndjson-stdio.js";
import { startAcpServer, type AcpServer } from "./server.js";

/** What the start-up path read before the SDK loaded. */
export interface EarlyStart {
  /** Bytes read from stdin so far (the first line and whatever came after it). */
  read: Buffer;
  /** The id of the initialize request already answered, if one was. */
  answeredId?: number | string;
}

/** Serves ACP on stdio until the client closes the connection; a failure is logged, then it returns. */
export async function serveAcpOnStdio(early: EarlyStart): Promise<void> {
  const logger = new FileLogger();
  try {
    await serve(early, logger);
  } catch (err) {
    logger.error(`acp: ${(err as Error).stack ?? String(err)}`);
  }
}

async function serve(early: EarlyStart, logger: FileLogger): Promise<void> {
  const ids = requestIds(logger);
  // Incoming messages are parsed as they arrive and paced fairly between sessions (ndjson-stdio.ts).
  const base = ndJsonStdio(process.stdin, process.stdout, early.read, { admit: (m) => ids.incoming(m) });
  const stream = randomRequestIds(early.answeredId === undefined ? base : dropAnswer(base, early.answeredId), ids);
  const server = startAcpServer({ stream, logger });
  const unhook = hookShutdown(server);
  await server.connection.closed;
  unhook();
  await server.dispose();
}

/** `stream` without the answer to request `id` (sent already by the start-up path). */
function dropAnswer(stream: acp.Stream, id: number | string): acp.Stream {
  const writer = stream.writable.getWriter();
  let pending = true;
  const writable = new WritableStream<acp.AnyMessage>({
    write(message) {
      if (pending && "id" in message && message.id === id && !("method" in message)) {
        pending = false;
        return;
      }
      return writer.write(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable: stream.readable, writable };
}

/**
 * Every request the server sends goes under a random id, and an answer that names no request of
 * this connection is refused (util/wire-request-ids.ts): `incoming` admits the answers.
 */
function requestIds(logger: FileLogger): WireRequestIds {
  return new WireRequestIds({
    cancelMethod: "$/cancel_request",
    cancelParam: "requestId",
    onStray: (id) => logger.warn(`acp: an answer came for a request this server is not waiting for (id ${JSON.stringify(id)}); it was ignored`),
  });
}

/** `stream` with the requests it writes under `ids`' random ids. */
function randomRequestIds(stream: acp.Stream, ids: WireRequestIds): acp.Stream {
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    write: (message) => writer.write(ids.outgoing(message)),
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable: stream.readable, writable };
}

/**
 * No orphans: once a session has built the runtime, whatever ends the server (a signal, the
 * client dying) ends the processes the agent started. Returns the way to stop watching. The
 * process modules are the runtime's: they are imported once it has loaded them.
 */
function hookShutdown(server: AcpServer): () => void {
  let watching = true;
  const timer = setInterval(() => {
    const runtime = server.client.built();
    if (!runtime) return;
    clearInterval(timer);
    void Promise.all([import("../exec/processes.js"), import("../exec/shutdown.js")]).then(([{ processManagerFrom }, { installShutdownHooks }]) => {
      const processes = processManagerFrom(runtime.services);
      if (processes && watching) installShutdownHooks(processes);
    });
  }, 200);
  timer.unref();
  return () => {
    watching = false;
    clearInterval(timer);
  };
}
