/**
 * One guarded HTTP GET: the name is resolved by us, every address judged (util/address-guard.ts), the
 * connection pinned to the address that passed (no DNS rebinding between check and connect),
 * redirects followed one hop at a time and each hop judged again, the body capped after
 * decompression and the whole exchange capped in time. Every failure is a WebError whose message
 * says what happened and what the user can change.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupAddress } from "node:dns";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { addressRefusal, hostAllowed, isIpLiteral, normalHost } from "../util/address-guard.js";

/** A failure meant for the model (and the user) to read. */
export class WebError extends Error {}

/** Resolves a host name to every address it has. */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo, as every other program on the machine sees names). */
export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The guard's settings and the fetch's limits. */
export interface FetchLimits {
  allowHosts: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

/** A fetched response. */
export interface FetchedPage {
  /** The address the body came from (after redirects). */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** Every address visited before `url`. */
  redirects: string[];
}

const USER_AGENT = "agent-lsp (web_fetch; +https://github.com/agent-lsp)";

/** Fetches `url` through the guard. Throws WebError. */
export async function guardedFetch(url: string, limits: FetchLimits, resolver: Resolver, signal: AbortSignal): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  const redirects: string[] = [];
  let current = parseUrl(url);
  try {
    for (;;) {
      const address = await checkedAddress(current, limits.allowHosts, resolver);
      const res = await request(current, address, both);
      const location = res.statusCode && res.statusCode >= 300 && res.statusCode < 400 ? res.headers.location : undefined;
      if (location === undefined) return await readResponse(res, current, redirects, limits, both);
      res.resume();
      if (redirects.length >= limits.maxRedirects) {
        throw new WebError(`${url} redirected more than ${limits.maxRedirects} times (last to ${location}); [web] max_redirects sets the limit.`);
      }
      redirects.push(current.href);
      current = parseUrl(new URL(location, current).href, `the redirect from ${current.href}`);
    }
  } catch (err) {
    if (err instanceof WebError) throw err;
    if (deadline.aborted && !signal.aborted) {
      throw new WebError(`Fetching ${current.href} took longer than ${limits.timeoutMs / 1000} s and was stopped; [web] timeout_s sets the limit.`);
    }
    if (signal.aborted) throw new WebError("Cancelled.");
    throw new WebError(describeNetworkError(err as NodeJS.ErrnoException, current));
  }
}

/** The URL, if it is http(s); a WebError naming what is wrong otherwise. */
function parseUrl(text: string, what = "the URL"): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebError(`${what} is not a valid URL: ${JSON.stringify(text)}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebError(`${what} uses ${url.protocol}; only http and https URLs can be fetched.`);
  }
  if (url.username || url.password) throw new WebError(`${what} carries a user name or password; web_fetch does not send credentials.`);
  return url;
}

/** Resolves the URL's host and returns an address the guard accepts (the first that does). */
export async function checkedAddress(url: URL, allowHosts: readonly string[], resolver: Resolver): Promise<LookupAddress> {
  const host = normalHost(url.hostname);
  const allowed = hostAllowed(host, allowHosts);
  const addresses: LookupAddress[] = isIpLiteral(host) ? [{ address: host, family: host.includes(":") ? 6 : 4 }] : await resolveAll(host, resolver);
  if (allowed) return addresses[0]!;
  // Every address must pass: a name with one public and one private address could be steered to
  // the private one by whoever controls its DNS.
  for (const a of addresses) {
    const refusal = addressRefusal(a.address);
    if (refusal) {
      throw new WebError(
        `Refused ${url.href}: ${host === a.address ? "" : `${host} resolves to `}${refusal}. Web tools reach public addresses only; ` +
          `if this host is yours and meant to be reached, the user can add "${host}" to [web] allow_hosts in their own config.`,
      );
    }
  }
  return addresses[0]!;
}

async function resolveAll(host: string, resolver: Resolver): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolver(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") throw new WebError(`The host name ${host} does not resolve (no such host). Check the URL.`);
    throw new WebError(`Could not resolve ${host}: ${(err as Error).message}.`);
  }
  if (!addresses.length) throw new WebError(`The host name ${host} resolves to no address.`);
  return addresses;
}

/** Sends the request to exactly `address`, whatever the name would resolve to now. */
function request(url: URL, address: LookupAddress, signal: AbortSignal): Promise<http.IncomingMessage> {
  const pinned = (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void => {
    if (options?.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  const mod = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, {
      method: "GET",
      lookup: pinned as never,
      signal,
      agent: false,
      headers: { "user-agent": USER_AGENT, accept: "text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5", "accept-encoding": "gzip, deflate, br" },
    });
    req.on("response", resolve);
    req.on("error", reject);
    req.end();
  });
}

/** Reads the body, decompressed, refusing it once it passes the cap. */
async function readResponse(res: http.IncomingMessage, url: URL, redirects: string[], limits: FetchLimits, signal: AbortSignal): Promise<FetchedPage> {
  const declared = Number(res.headers["content-length"]);
  const encoding = String(res.headers["content-encoding"] ?? "identity").toLowerCase();
  if (encoding === "identity" && Number.isFinite(declared) && declared > limits.maxBytes) {
    res.destroy();
    throw tooLarge(url, `${declared} bytes`, limits.maxBytes);
  }
  const stream = decoded(res, encoding);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (signal.aborted) break;
    total += chunk.length;
    if (total > limits.maxBytes) {
      res.destroy();
      throw tooLarge(url, `more than ${limits.maxBytes} bytes`, limits.maxBytes);
    }
    chunks.push(chunk);
  }
  signal.throwIfAborted();
  return {
    url: url.href,
    status: res.statusCode ?? 0,
    contentType: String(res.headers["content-type"] ?? ""),
    body: Buffer.concat(chunks),
    redirects,
  };
}

function decoded(res: http.IncomingMessage, encoding: string): Readable {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return res.pipe(zlib.createGunzip());
    case "deflate":
      return res.pipe(zlib.createInflate());
    case "br":
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

function tooLarge(url: URL, size: string, max: number): WebError {
  return new WebError(`The response from ${url.href} is ${size}, over the ${max}-byte limit; nothing was kept. [web] max_bytes sets the limit.`);
}

/** A network error in words: what failed and what the user can do about it. */
function describeNetworkError(err: NodeJS.ErrnoException, url: URL): string {
  const host = url.host;
  switch (err.code) {
    case "ECONNREFUSED":
      return `Could not connect to ${host}: the connection was refused (nothing listens there). Check the URL or try later.`;
    case "ECONNRESET":
      return `The connection to ${host} was reset before the response was complete. Try again later.`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `Could not reach ${host} (${err.code}): the host is unreachable from this machine.`;
    case "HPE_INVALID_CONSTANT":
    case "HPE_INVALID_HEADER_TOKEN":
      return `${host} did not answer with valid HTTP (${err.message}).`;
  }
  if (/certificate|SSL|TLS|self.signed|CERT_/i.test(`${err.code} ${err.message}`)) {
    return `TLS error talking to ${host}: ${err.message}. The site's certificate could not be verified, so nothing was read; check the address (http vs https) or the site.`;
  }
  return `Fetching ${url.href} failed: ${err.message}${err.code ? ` (${err.code})` : ""}.`;
}
