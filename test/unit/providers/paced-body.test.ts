/**
 * A large request body sent as a paced stream: the server gets the same bytes with their
 * Content-Length (never chunked) and the content type; a small body goes to fetch as it was.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PACED_BODY_BYTES, pacedBodies } from "../../../server/src/providers/paced-body.js";

let server: http.Server;
let url: string;
const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];

beforeEach(async () => {
  received.length = 0;
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("pacedBodies", () => {
  it("sends a large Blob as the same bytes with its length and type", async () => {
    const bytes = Buffer.from(`{"content":"${'é "\\\\ y\\n'.repeat(PACED_BODY_BYTES / 8)}"}`);
    const blob = new Blob([bytes.subarray(0, 1000), bytes.subarray(1000)], { type: "application/json" });
    const res = await pacedBodies(fetch)(url, { method: "POST", body: blob, headers: { "x-api-key": "k" } });
    expect(await res.text()).toBe("ok");
    const [got] = received;
    expect(got!.headers["content-length"]).toBe(String(bytes.length));
    expect(got!.headers["transfer-encoding"]).toBeUndefined();
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["x-api-key"]).toBe("k");
    expect(got!.body.equals(bytes)).toBe(true);
  });

  it("hands a small body to fetch as it was", async () => {
    const seen: (RequestInit | undefined)[] = [];
    const init = { method: "POST", body: new Blob(["{}"]) };
    await pacedBodies(async (_input, i) => (seen.push(i), new Response("ok")))(url, init);
    expect(seen[0]).toBe(init);
  });
});
