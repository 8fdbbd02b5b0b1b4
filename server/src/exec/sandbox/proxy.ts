/**
 * The sandbox's way out to the network (`[exec] network = "allow_hosts"`): a small HTTP proxy,
 * one per launch, that takes `CONNECT host:port` (HTTPS and anything tunnelled) and plain
 * `GET http://...` requests, and lets through only hosts of `[exec] allow_hosts`. Every address
 * the host resolves to must pass the web tools' address guard (no loopback, private network or
 * cloud metadata address) unless `[web] allow_hosts` lists the host, and the connection is
 * pinned to the address that was judged. What it refused is kept, so the command's result can
 * say so. On Linux it listens on a Unix socket that the sandbox binds in (the sandbox has no
 * network of its own; exec/sandbox/bridge.ts carries loopback connections to it); on macOS on a
 * loopback port the profile allows.
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { addressRefusal, hostAllowed, isIpLiteral, normalHost } from "../../util/address-guard.js";

/** Which hosts the proxy lets through. */
export interface ProxyRules {
  /** `[exec] allow_hosts`. */
  allowHosts: readonly string[];
  /** `[web] allow_hosts`: hosts whose private or local addresses may be reached. */
  privateHosts: readonly string[];
  /** Resolves a name to every address it has; the system resolver by default. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** Where the proxy listens: a Unix socket path, or a loopback port (0: any free one). */
export type ProxyListen = { socket: string } | { port: number };

/** Most refusals kept for the result. */
const MAX_REFUSALS = 10;

/** A running proxy. */
export class FilteringProxy {
  private readonly refused: string[] = [];
  private readonly open = new Set<Duplex>();

  private constructor(
    private readonly server: http.Server,
    private readonly rules: ProxyRules,
  ) {}

  /** Starts a proxy; resolves once it listens. */
  static async start(listen: ProxyListen, rules: ProxyRules): Promise<FilteringProxy> {
    const server = http.createServer();
    const proxy = new FilteringProxy(server, rules);
    server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => void proxy.tunnel(req, client, head));
    server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => void proxy.forward(req, res));
    server.on("connection", (socket: net.Socket) => proxy.track(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if ("socket" in listen) server.listen(listen.socket, resolve);
      else server.listen(listen.port, "127.0.0.1", resolve);
    });
    return proxy;
  }

  /** The loopback port it listens on (when it listens on one). */
  get port(): number | undefined {
    const address = this.server.address();
    return address && typeof address === "object" ? address.port : undefined;
  }

  /** What it refused so far, one line each ("example.com:443: not in [exec] allow_hosts"). */
  refusals(): string[] {
    return [...this.refused];
  }

  /** Stops listening and ends every connection still open. */
  close(): void {
    this.server.close();
    for (const socket of this.open) socket.destroy();
  }

  private track(socket: Duplex): void {
    this.open.add(socket);
    socket.once("close", () => this.open.delete(socket));
  }

  /** `CONNECT host:port`: a tunnel to the pinned address, or a refusal. */
  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    client.on("error", () => client.destroy());
    const target = splitHostPort(req.url ?? "");
    const judged = target ? await this.judge(target.host, target.port) : { refusal: `"${req.url}" is not host:port` };
    if ("refusal" in judged) {
      client.end(refusalResponse(judged.refusal));
      return;
    }
    const upstream = net.connect({ host: judged.address, port: target!.port });
    this.track(upstream);
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (err) => {
      if (upstream.connecting) client.end(refusalResponse(`could not connect: ${err.message}`, "502 Bad Gateway"));
      else client.destroy();
    });
    client.once("close", () => upstream.destroy());
  }

  /** A plain-HTTP request in absolute form (`GET http://host/path`), forwarded to the pinned address. */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
      if (url.protocol !== "http:") throw new Error("not http");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("agent-lsp sandbox proxy: only CONNECT and absolute http:// requests are served.\n");
      return;
    }
    const port = Number(url.port || 80);
    const judged = await this.judge(url.hostname, port);
    if ("refusal" in judged) {
      res.writeHead(403, { "content-type": "text/plain" }).end(`agent-lsp sandbox proxy refused ${url.host}: ${judged.refusal}\n`);
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request({ host: judged.address, port, path: `${url.pathname}${url.search}`, method: req.method, headers, setHost: false });
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`agent-lsp sandbox proxy: ${url.host}: ${err.message}\n`);
    });
    req.pipe(upstream);
  }

  /** The address to connect to for `host:port`, or why not (recorded). */
  private async judge(rawHost: string, port: number): Promise<{ address: string } | { refusal: string }> {
    const host = normalHost(rawHost);
    const refuse = (refusal: string) => {
      if (this.refused.length < MAX_REFUSALS) this.refused.push(`${host}:${port}: ${refusal}`);
      return { refusal };
    };
    if (!hostAllowed(host, this.rules.allowHosts)) return refuse("not in [exec] allow_hosts");
    let addresses: { address: string }[];
    try {
      addresses = isIpLiteral(host) ? [{ address: host }] : await (this.rules.resolve ?? resolveAll)(host);
    } catch (err) {
      return refuse(`the name does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    if (!addresses.length) return refuse("the name resolves to no address");
    if (!hostAllowed(host, this.rules.privateHosts)) {
      for (const a of addresses) {
        const why = addressRefusal(a.address);
        if (why) return refuse(`${why}; [web] allow_hosts must list the host for that`);
      }
    }
    return { address: addresses[0]!.address };
  }
}

function resolveAll(host: string): Promise<{ address: string; family: number }[]> {
  return lookup(host, { all: true, verbatim: true });
}

/** `host:port` or `[v6]:port` of a CONNECT line. */
function splitHostPort(text: string): { host: string; port: number } | undefined {
  const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  return m && port > 0 && port < 65536 ? { host: m[1]!, port } : undefined;
}

function refusalResponse(why: string, status = "403 Forbidden"): string {
  const body = `agent-lsp sandbox proxy: ${why}\n`;
  return `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}
