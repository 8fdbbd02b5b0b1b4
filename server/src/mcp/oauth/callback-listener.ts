/**
 * The redirect target of a sign-in: `http://127.0.0.1:<port>/callback`, listening on the loopback
 * address only, for one sign-in. The first request to exactly `/callback` is the answer (whatever
 * it holds: the caller checks `state` before anything else); the listener then closes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening callback. */
export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  /** The query of the answer. */
  answer: Promise<URLSearchParams>;
  close(): void;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** Listens on 127.0.0.1:`port` (0: a free one). */
export async function listenForCallback(port = 0): Promise<CallbackListener> {
  let resolve!: (query: URLSearchParams) => void;
  const answer = new Promise<URLSearchParams>((r) => (resolve = r));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const failed = url.searchParams.has("error");
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(failed ? PAGE("Sign-in refused", "agent-lsp got the refusal. You can close this tab.") : PAGE("Signed in", "agent-lsp got the answer and finishes the sign-in. You can close this tab."));
    resolve(url.searchParams);
    close();
  });
  const close = () => {
    server.close();
    server.closeAllConnections();
  };
  await new Promise<void>((ok, fail) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      fail(err.code === "EADDRINUSE" ? new Error(`the sign-in redirect port ${port} is in use (callback_port); close what uses it or choose another port`) : err),
    );
    server.listen(port, "127.0.0.1", () => ok());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { redirectUrl: `http://127.0.0.1:${bound}/callback`, answer, close };
}
