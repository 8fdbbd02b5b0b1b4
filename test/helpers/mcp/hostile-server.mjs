#!/usr/bin/env node
/**
 * Small MCP servers that misbehave on purpose, speaking 2025-11-25 over stdio by hand (the
 * official SDK would not misbehave for us). The first argument picks the behaviour:
 *
 *   silent-discover  never answers server/discover (or any unknown request): the client must fall back to initialize
 *   crash            the tool "crash" exits the process mid-call; every start appends a line to $MCP_TEST_LOG
 *   names            tool names and schemas that need sanitising, and one schema no provider accepts
 *   big              the tool "big" returns 5 MB of text
 *   hang             the tool "hang" never answers; a notifications/cancelled is appended to $MCP_TEST_LOG
 *   liar             claims resources and prompts, then fails to list them
 *   orphan           starts a detached grandchild (setsid) and writes both pids to $MCP_TEST_LOG
 *   many             $MCP_TEST_TOOLS tools (default 1000) with varied names and descriptions (benchmarks)
 *   garbage          the tool "garbage" writes a line that is not JSON instead of its answer
 *   probe            notes to $MCP_TEST_LOG its pid and whether it could write $MCP_PROBE_WRITE and
 *                    read $MCP_PROBE_READ (the sandbox's tests)
 *
 * Every mode also serves the tool "echo" ({text}) so a test can see it working; any other mode
 * (say "echo-only") serves only that.
 */
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "silent-discover";
const log = process.env.MCP_TEST_LOG;
const note = (line) => log && appendFileSync(log, `${line}\n`);

const echo = { name: "echo", description: "Echo the text back", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
const TOOLS = {
  crash: [echo, { name: "crash", description: "Exit in the middle of the call", inputSchema: { type: "object" } }],
  big: [echo, { name: "big", description: "Return five megabytes of text", inputSchema: { type: "object" } }],
  hang: [echo, { name: "hang", description: "Never answer", inputSchema: { type: "object" } }],
  garbage: [echo, { name: "garbage", description: "Answer with a line that is not JSON", inputSchema: { type: "object" } }],
  names: [
    echo,
    { name: "search.code", description: "Dots in the name", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
    { name: "search code", description: "A space in the name", inputSchema: { type: "object" } },
    { name: `very_${"long_".repeat(20)}name`, description: "Too long for providers", inputSchema: { type: "object" } },
    {
      name: "with_ref",
      description: "A schema with $ref",
      inputSchema: { type: "object", $defs: { Q: { type: "string", description: "query" } }, properties: { q: { $ref: "#/$defs/Q" } }, required: ["q"] },
    },
    { name: "not_an_object", description: "Its input is a string", inputSchema: { type: "string" } },
  ],
};

/** Tools for the `many` mode: names and descriptions built from a few word lists, so searches rank. */
function manyTools(count) {
  const verbs = ["list", "get", "create", "update", "delete", "search", "sync", "export"];
  const things = ["issue", "pull_request", "user", "team", "project", "file", "comment", "label", "milestone", "release", "branch", "commit", "workflow", "secret", "webhook"];
  return Array.from({ length: count }, (_, i) => {
    const verb = verbs[i % verbs.length];
    const thing = things[Math.floor(i / verbs.length) % things.length];
    return {
      name: `${verb}_${thing}_${i}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${thing.replace("_", " ")} in workspace ${i % 37}, with paging and filters.`,
      inputSchema: { type: "object", properties: { id: { type: "string" }, limit: { type: "number" } }, required: ["id"] },
    };
  });
}

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

function capabilities() {
  if (mode === "liar") return { tools: {}, resources: {}, prompts: {} };
  return { tools: {} };
}

function callTool(id, name, args) {
  if (name === "echo") return send({ id, result: { content: [{ type: "text", text: `echo: ${args?.text ?? ""}` }] } });
  if (name === "crash") {
    note("crashing");
    process.exit(3);
  }
  if (name === "big") return send({ id, result: { content: [{ type: "text", text: `HEAD ${"x".repeat(5 * 1024 * 1024)} TAIL` }] } });
  if (name === "hang") return note(`hanging ${id}`);
  if (name === "garbage") return process.stdout.write("{this is not json\n");
  send({ id, error: { code: -32602, message: `unknown tool ${name}` } });
}

function onRequest(message) {
  const { id, method, params } = message;
  switch (method) {
    case "initialize":
      return send({ id, result: { protocolVersion: params.protocolVersion, capabilities: capabilities(), serverInfo: { name: `hostile-${mode}`, version: "1.0.0" } } });
    case "ping":
      return send({ id, result: {} });
    case "tools/list":
      return send({ id, result: { tools: mode === "many" ? [echo, ...manyTools(Number(process.env.MCP_TEST_TOOLS ?? 1000))] : (TOOLS[mode] ?? [echo]) } });
    case "tools/call":
      return callTool(id, params.name, params.arguments);
    case "resources/list":
    case "resources/templates/list":
    case "prompts/list":
      return send({ id, error: { code: -32603, message: "this server only pretends to have them" } });
    default:
      // The silence a legacy server keeps for requests it does not know (server/discover included).
      if (mode === "silent-discover" || mode === "hang") return;
      return send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
}

if (mode === "orphan") {
  const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  child.unref();
  note(`server ${process.pid} grandchild ${child.pid}`);
}
if (mode === "crash") note(`started ${process.pid}`);
if (mode === "probe") {
  const attempt = (what, fn) => {
    try {
      fn();
      note(`${what} ok`);
    } catch (err) {
      note(`${what} ${err.code}`);
    }
  };
  note(`pid ${process.pid}`);
  attempt("write", () => writeFileSync(process.env.MCP_PROBE_WRITE, "planted\n"));
  attempt("read", () => readFileSync(process.env.MCP_PROBE_READ, "utf8"));
}
// Something on stderr, as real servers print banners: it belongs in agent-lsp's log.
process.stderr.write(`hostile server ${mode} starting\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.method === "notifications/cancelled") return note(`cancelled ${message.params?.requestId}`);
  if (message.id !== undefined && message.method) onRequest(message);
});
process.stdin.on("end", () => process.exit(0));
