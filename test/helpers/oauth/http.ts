/**
 * The little HTTP plumbing the OAuth test servers share: a server on 127.0.0.1 (a free port) whose
 * handler takes and gives web-standard Request and Response, as the MCP server package does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening test server. */
export interface LocalServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a free port. */
export async function serveLocal(handler: (request: Request) => Promise<Response>): Promise<LocalServer> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method!, headers, ...(body.length ? { body } : {}) });
    let response: Response;
    try {
      response = await handler(request);
    } catch (err) {
      response = new Response(String(err), { status: 500 });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A JSON response. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json", ...headers } });
}
