/**
 * A local web site on 127.0.0.1 for the web tools' tests, with real-shaped pages: an article
 * among navigation and ads, a docs page with code blocks, a JSON API, a redirect chain, a
 * redirect to a private address, a huge body, a slow drip. It listens on loopback only, and the
 * tests reach it by name through a resolver they control (never through real DNS).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LookupAddress } from "node:dns";

/** The site and how to reach it. */
export interface TestSite {
  port: number;
  /** `http://<host>:<port>`. */
  base(host?: string): string;
  /** Requests received, as "METHOD path". */
  hits: string[];
  close(): Promise<void>;
}

/** The test host name the resolver maps to 127.0.0.1. */
export const SITE_HOST = "docs.example.test";

/** An article with navigation, ads and a footer around it, as news and blog pages are. */
export function articleHtml(paragraphs = 8, title = "How the Tide Works"): string {
  const body = Array.from({ length: paragraphs }, (_, i) => `<p>Paragraph ${i + 1} of the article explains the moon, the sun and the sea in some detail, with enough words to look like prose that a reader would actually read through.</p>`).join("\n");
  return `<!doctype html><html><head><title>${title} | Sea News</title><script>window.track = 1;</script><style>.ad{color:red}</style></head>
<body>
<nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="/sports">Sports</a></li></ul></nav>
<div class="ad banner">BUY NOW! Amazing deals on boats!</div>
<main><article>
<h1>${title}</h1>
<p class="byline">By Ada Lovelace</p>
${body}
<h2>Further reading</h2>
<ul><li>The <a href="/moon">moon page</a></li><li>Tables of <strong>spring</strong> tides</li></ul>
</article></main>
<aside class="ad sidebar">Subscribe for only $1!</aside>
<footer>© Sea News. <a href="/privacy">Privacy</a></footer>
</body></html>`;
}

/** A documentation page with code blocks and inline code. */
export function docsHtml(): string {
  return `<!doctype html><html><head><title>fs.readFile | Node.js docs</title></head><body>
<nav><a href="/api">API</a> <a href="/guides">Guides</a></nav>
<main><article>
<h1>fs.readFile(path[, options], callback)</h1>
<p>Asynchronously reads the entire contents of a file. Use <code>fs.promises.readFile</code> for promises. The callback gets two arguments, an error and the data, and this paragraph is long enough for readability.</p>
<pre><code class="language-js">import { readFile } from 'node:fs';
readFile('/etc/passwd', (err, data) => {
  if (err) throw err;
  console.log(data);
});</code></pre>
<h2>Options</h2>
<ol><li><code>encoding</code> &lt;string&gt; Default: null</li><li><code>flag</code> &lt;string&gt; Default: 'r'</li></ol>
<p>See the <a href="/api/fs.html#fspromisesreadfilepath-options">promises API</a> for more, including signals and the many details of flags, which matter on some systems and which readers of this page want to know about.</p>
</article></main></body></html>`;
}

type Handler = (req: IncomingMessage, res: ServerResponse, site: TestSite) => void;

const ROUTES: Record<string, Handler> = {
  "/article": (_q, res) => html(res, articleHtml()),
  "/docs": (_q, res) => html(res, docsHtml()),
  "/api/items": (_q, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ items: [{ id: 1, name: "Ünïcode" }, { id: 2, name: "two" }], total: 2 }));
  },
  "/plain": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("line one\nline two\n");
  },
  "/image": (_q, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    res.end(Buffer.alloc(2048, 1));
  },
  "/nothing-readable": (_q, res) => html(res, "<!doctype html><html><head><title>Index</title></head><body><table><tr><td><a href='/a'>a.tar.gz</a></td><td>12K</td></tr></table></body></html>"),
  "/hop1": (_q, res, s) => redirect(res, `${s.base()}/hop2`),
  "/hop2": (_q, res) => redirect(res, "/hop3"),
  "/hop3": (_q, res) => redirect(res, "/article"),
  "/loop": (_q, res) => redirect(res, "/loop"),
  "/to-private": (_q, res) => redirect(res, "http://10.1.2.3/admin"),
  "/to-metadata": (_q, res) => redirect(res, "http://169.254.169.254/latest/meta-data/"),
  "/to-loopback-literal": (_q, res, s) => redirect(res, `http://127.0.0.1:${s.port}/article`),
  "/huge": (_q, res) => {
    // 50 MB, streamed without a length, as a generated download would be.
    res.writeHead(200, { "content-type": "text/plain" });
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < 50) {
        sent++;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  },
  "/huge-declared": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": String(50 * 1024 * 1024) });
    res.write("a");
    // Never sends the rest: the declared length alone must be enough to refuse.
  },
  "/drip": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => res.write("."), 100);
    res.on("close", () => clearInterval(timer));
  },
};

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}

/** Starts the site on 127.0.0.1; `extra` adds or replaces routes. */
export async function startTestSite(extra: Record<string, Handler> = {}): Promise<TestSite> {
  const routes = { ...ROUTES, ...extra };
  const hits: string[] = [];
  const open = new Set<import("node:net").Socket>();
  let site!: TestSite;
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const route = routes[new URL(req.url ?? "/", "http://x").pathname];
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    route(req, res, site);
  });
  server.on("connection", (s) => {
    open.add(s);
    s.on("close", () => open.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  site = {
    port,
    hits,
    base: (host = SITE_HOST) => `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
  return site;
}

/**
 * A resolver the test controls: the site's name goes to 127.0.0.1, hostile names to private and
 * metadata addresses (which the guard must refuse before any connection), unknown names fail as
 * DNS does. No real DNS is ever asked.
 */
export function testResolver(extra: Record<string, string[]> = {}): (host: string) => Promise<LookupAddress[]> {
  const table: Record<string, string[]> = {
    [SITE_HOST]: ["127.0.0.1"],
    "intranet.example.test": ["10.0.0.7"],
    "metadata.example.test": ["169.254.169.254"],
    "v6-metadata.example.test": ["fd00:ec2::254"],
    "mapped.example.test": ["::ffff:127.0.0.1"],
    "cgnat.example.test": ["100.64.0.9"],
    // One public and one private address: the private one must sink it.
    "mixed.example.test": ["93.184.216.34", "192.168.1.20"],
    ...extra,
  };
  return async (host) => {
    const addresses = table[host.toLowerCase()];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}
