/** Work-done progress ($/progress) for clients that show it; a silent handle for the rest. */
import type { Connection } from "vscode-languageserver/node.js";
import type { ProgressHandle } from "../editor/editor.js";

/** Starts server-initiated work-done progress, or returns a handle that does nothing. */
export function startProgress(connection: Connection, supported: boolean, title: string): ProgressHandle {
  if (!supported) return { report() {}, done() {} };
  const queue: ((p: Awaited<ReturnType<Connection["window"]["createWorkDoneProgress"]>>) => void)[] = [];
  let reporter: Awaited<ReturnType<Connection["window"]["createWorkDoneProgress"]>> | undefined;
  let finished = false;
  // Reports made before the client answers window/workDoneProgress/create are queued, in order.
  connection.window
    .createWorkDoneProgress()
    .then((r) => {
      reporter = r;
      r.begin(title, undefined, undefined, false);
      for (const step of queue.splice(0)) step(r);
    })
    .catch(() => {
      /* the client declined progress: nothing to show */
    });
  const run = (step: (p: NonNullable<typeof reporter>) => void) => (reporter ? step(reporter) : queue.push(step));
  return {
    report(message, percentage) {
      if (!finished) run((r) => (percentage === undefined ? r.report(message) : r.report(percentage, message)));
    },
    done(message) {
      if (finished) return;
      finished = true;
      run((r) => {
        if (message) r.report(message);
        r.done();
      });
    },
  };
}
