#!/usr/bin/env node
/**
 * A 2026-07-28 MCP server built with the official server package (@modelcontextprotocol/server),
 * modern-only: it refuses the 2025 `initialize` handshake, so a client that reaches it at all
 * negotiated 2026-07-28. Over stdio by default; `http PORT_FILE` serves Streamable HTTP on a free
 * port and writes the port to PORT_FILE.
 *
 * Tools: add {a, b}, weather {city} (structuredContent), picture (an image), poster (a picture too
 * large to send as it is), links (a resource link),
 * confirm (asks the client for input by elicitation, which agent-lsp does not provide).
 * Resources: notes://readme; template notes://{topic} with completion of topic. Prompt: review {code, focus?}.
 */
import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { completable, createMcpHandler, inputRequired, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const TOPICS = ["events", "errors", "environment", "users"];
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function build() {
  const server = new McpServer({ name: "modern-test", version: "1.0.0" }, { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } });
  server.registerTool("add", { title: "Add numbers", description: "Add two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool(
    "weather",
    { description: "Weather forecast for a city", inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ city: z.string(), celsius: z.number() }) },
    async ({ city }) => ({ content: [{ type: "text", text: `Sunny in ${city}` }], structuredContent: { city, celsius: 21 } }),
  );
  server.registerTool("picture", { description: "Return a tiny picture" }, async () => ({ content: [{ type: "image", mimeType: "image/png", data: PNG }] }));
  server.registerTool("poster", { description: "Return a 3000x2000 picture" }, async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#336699" } }).png().toBuffer();
    return { content: [{ type: "image", mimeType: "image/png", data: png.toString("base64") }] };
  });
  server.registerTool("links", { description: "Return a link to the readme resource" }, async () => ({
    content: [{ type: "resource_link", uri: "notes://readme", name: "readme", mimeType: "text/plain" }],
  }));
  server.registerTool("confirm", { description: "Ask the user to confirm" }, async () =>
    inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: "Go ahead?", requestedSchema: z.object({ ok: z.boolean() }) }) } }),
  );
  server.registerResource("readme", "notes://readme", { title: "Read me first", description: "How the notes are organised", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "Notes are kept by topic." }],
  }));
  server.registerResource(
    "topic",
    new ResourceTemplate("notes://{topic}", { list: undefined, complete: { topic: (value) => TOPICS.filter((t) => t.startsWith(value)) } }),
    { title: "Notes on a topic", description: "The notes of one topic", mimeType: "text/plain" },
    async (uri, { topic }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `Notes about ${topic}.` }] }),
  );
  server.registerPrompt(
    "review",
    { description: "Review code", argsSchema: z.object({ code: completable(z.string(), () => []), focus: z.string().optional() }) },
    ({ code, focus }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please review this code${focus ? ` for ${focus}` : ""}:\n${code}` } }] }),
  );
  return server;
}

if (process.argv[2] === "http") {
  const handler = createMcpHandler(() => build(), { legacy: "reject" });
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, ...(body.length ? { body } : {}) });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  http.listen(0, "127.0.0.1", () => writeFileSync(process.argv[3], String(http.address().port)));
} else {
  serveStdio(() => build(), { legacy: "reject" });
}
