/** Work-done progress ($/progress) for clients that show it; a silent handle for the rest. */
import type { Connection, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver/node.js";
import { WorkDoneProgress, WorkDoneProgressCreateRequest } from "./lsp-library.js";
import type { ProgressHandle } from "../editor/session-ui.js";
import type { Logger } from "../util/log.js";

type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

let nextToken = 1;

/**
 * A token a person can read. Some clients print the token beside the title (Helix shows
 * `[token] title`), so it says whose progress it is instead of being a random UUID.
 */
function readableToken(): string {
  return `agent-lsp ${nextToken++}`;
}

/** Starts server-initiated work-done progress, or returns a handle that does nothing. */
export function startProgress(connection: Connection, supported: boolean, title: string, log: Logger): ProgressHandle {
  if (!supported) return { report() {}, done() {} };
  const token = readableToken();
  const queue: ProgressValue[] = [];
  let state: "creating" | "open" | "declined" = "creating";
  let finished = false;
  const send = (value: ProgressValue) => {
    if (state === "declined") return;
    if (state === "creating") queue.push(value);
    else void connection.sendProgress(WorkDoneProgress.type, token, value).catch((err: Error) => log.warn(`$/progress not sent: ${err.message}`));
  };
  // Reports made before the client answers window/workDoneProgress/create are queued, in order.
  connection.sendRequest(WorkDoneProgressCreateRequest.type, { token }).then(
    () => {
      state = "open";
      for (const value of queue.splice(0)) send(value);
    },
    (err: Error) => {
      // The client declined progress: nothing to show, and nothing more to send.
      log.debug(`no progress "${title}": ${err.message}`);
      state = "declined";
      queue.length = 0;
    },
  );
  send({ kind: "begin", title, cancellable: false });
  return {
    report(message, percentage) {
      if (!finished) send({ kind: "report", message, ...(percentage === undefined ? {} : { percentage }) });
    },
    done(message) {
      if (finished) return;
      finished = true;
      // The outcome goes in a last report too: some clients show only report messages.
      if (message) send({ kind: "report", message });
      send({ kind: "end", ...(message ? { message } : {}) });
    },
  };
}
