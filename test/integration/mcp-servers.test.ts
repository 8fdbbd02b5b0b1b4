/**
 * The MCP client against real servers: server-everything (2025-11-25) over stdio and Streamable
 * HTTP, the 2026-07-28 server built with the official server package over both, and servers that
 * misbehave: silent on server/discover, crashing mid-call, names and schemas to sanitise, 5 MB
 * answers, calls that hang until cancelled, listings that fail, missing commands.
 */
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpManager } from "../../server/src/mcp/manager.js";
import { callMcpTool, completeTemplateArgument, expandTemplate, getMcpPrompt, listMcpResources, readMcpResource } from "../../server/src/mcp/operations.js";
import { survivors } from "../unit/exec/fake-context.js";
import { EVERYTHING, HOSTILE, hostile, mcpConfig, MODERN, nodeServer, SILENT, startEverythingHttp, startModernHttp, testManager, type HttpServer } from "../helpers/mcp/servers.js";
import { waitFor } from "../helpers/wait.js";

const readCall = (server: string, uri: string) => `mcp_tools({"read":{"server":"${server}","uri":"${uri}"}})`;
const need = { sessionId: "s-test" };
let managers: McpManager[] = [];
let https: HttpServer[] = [];
let files: string[] = [];

afterEach(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
  for (const h of https) h.close();
  for (const f of files) rmSync(f, { recursive: true, force: true });
  managers = [];
  https = [];
  files = [];
});

function manager(...args: Parameters<typeof testManager>) {
  const m = testManager(...args);
  managers.push(m);
  return m;
}

function tempLog(): string {
  const file = path.join(os.tmpdir(), `mcp-log-${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, "");
  files.push(file);
  return file;
}

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((b) => b.text ?? `[${b.type}]`).join("\n");
}

function tool(m: McpManager, name: string) {
  const entry = m.tools().find((t) => t.name === name);
  if (!entry) throw new Error(`no tool ${name}; have ${m.tools().map((t) => t.name).join(", ")}`);
  return entry;
}

describe("server-everything (2025-11-25)", () => {
  it("over stdio: lists its tools, resources and prompts and answers a call", async () => {
    const m = manager(mcpConfig({ everything: nodeServer(EVERYTHING, "stdio") }));
    await m.ensureStarted(need);
    const status = m.status("everything")!;
    expect(status).toMatchObject({ state: "ready", transport: "stdio", protocolVersion: "2025-11-25" });
    expect(status.tools).toBeGreaterThan(5);
    expect(status.resources).toBeGreaterThan(0);
    expect(status.prompts).toBeGreaterThan(0);
    const result = await callMcpTool(m, tool(m, "mcp__everything__echo"), { message: "hello there" }, new AbortController().signal, readCall);
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("hello there");
    expect(textOf(result)).toContain('[MCP server "everything", tool echo: untrusted data');
  }, 30_000);

  it("a call that reports progress outlives tool_timeout_s: each report restarts it, and each is heard", async () => {
    const m = manager(mcpConfig({ everything: { ...nodeServer(EVERYTHING, "stdio"), tool_timeout_s: 1.5 } }));
    await m.ensureStarted(need);
    const heard: { progress: number; total?: number }[] = [];
    const began = Date.now();
    const result = await callMcpTool(m, tool(m, "mcp__everything__trigger-long-running-operation"), { duration: 4, steps: 8 }, new AbortController().signal, readCall, (p) =>
      heard.push(p),
    );
    expect(Date.now() - began).toBeGreaterThan(3000);
    expect(textOf(result)).toContain("Long running operation completed");
    expect(heard.length).toBeGreaterThan(0);
    expect(heard[0]).toMatchObject({ progress: 1, total: 8 });
  }, 30_000);

  it("over Streamable HTTP", async () => {
    const http = await startEverythingHttp();
    https.push(http);
    const m = manager(mcpConfig({ web: { url: http.url } }));
    await m.ensureStarted(need);
    expect(m.status("web")).toMatchObject({ state: "ready", transport: "http", protocolVersion: "2025-11-25" });
    const result = await callMcpTool(m, tool(m, "mcp__web__echo"), { message: "over http" }, new AbortController().signal, readCall);
    expect(textOf(result)).toContain("over http");
    const listed = JSON.parse(await listMcpResources(m, "web", new AbortController().signal)) as { uri: string }[];
    expect(listed.length).toBeGreaterThan(0);
  }, 30_000);
});

describe("a 2026-07-28 server built with the official server package", () => {
  it("over stdio: negotiates 2026-07-28; tools, structured content, images, links, resources, templates, completion, prompts", async () => {
    const m = manager(mcpConfig({ notes: nodeServer(MODERN) }));
    await m.ensureStarted(need);
    expect(m.status("notes")).toMatchObject({ state: "ready", protocolVersion: "2026-07-28", tools: 6, resources: 1, templates: 1, prompts: 1 });
    const signal = new AbortController().signal;
    expect(textOf(await callMcpTool(m, tool(m, "mcp__notes__add"), { a: 2, b: 40 }, signal, readCall))).toContain("42");
    expect(textOf(await callMcpTool(m, tool(m, "mcp__notes__weather"), { city: "Oslo" }, signal, readCall))).toContain('"celsius": 21');
    const picture = await callMcpTool(m, tool(m, "mcp__notes__picture"), {}, signal, readCall);
    expect(picture.content.some((b) => b.type === "image" && b.mediaType === "image/png")).toBe(true);
    // A picture over what providers take is fitted the way read_file's are, not sent as it came.
    const poster = (await callMcpTool(m, tool(m, "mcp__notes__poster"), {}, signal, readCall)).content.find((b) => b.type === "image");
    const size = await (await import("sharp")).default(Buffer.from(poster!.type === "image" ? poster!.data : "", "base64")).metadata();
    expect([size.width, size.height]).toEqual([1313, 875]);
    expect(textOf(await callMcpTool(m, tool(m, "mcp__notes__links"), {}, signal, readCall))).toContain('Read it with: mcp_tools({"read":{"server":"notes","uri":"notes://readme"}})');
    expect(textOf(await readMcpResource(m, "notes", "notes://readme", signal))).toContain("Notes are kept by topic.");
    const uri = await expandTemplate(m, "notes", "notes://{topic}", { topic: "events" });
    expect(uri).toBe("notes://events");
    expect(textOf(await readMcpResource(m, "notes", uri, signal))).toContain("Notes about events.");
    const completion = await completeTemplateArgument(m, { server: "notes", template: "notes://{topic}", argument: { name: "topic", value: "e" } }, signal);
    expect(completion.values).toEqual(["events", "errors", "environment"]);
    expect(await getMcpPrompt(m, "notes", "review", { code: "x = 1", focus: "naming" }, signal)).toBe("Please review this code for naming:\nx = 1");
    // agent-lsp declares no elicitation, sampling or roots: a tool that needs them fails clearly.
    await expect(callMcpTool(m, tool(m, "mcp__notes__confirm"), {}, signal, readCall)).rejects.toThrow(
      /^The MCP server "notes" asked for input from the user or the model \(elicitation, sampling or roots\), which agent-lsp does not provide: /,
    );
  }, 30_000);

  it("over Streamable HTTP: negotiates 2026-07-28 as well", async () => {
    const http = await startModernHttp();
    https.push(http);
    const m = manager(mcpConfig({ remote: { url: http.url } }));
    await m.ensureStarted(need);
    expect(m.status("remote")).toMatchObject({ state: "ready", transport: "http", protocolVersion: "2026-07-28" });
    expect(textOf(await callMcpTool(m, tool(m, "mcp__remote__add"), { a: 1, b: 1 }, new AbortController().signal, readCall))).toContain("2");
  }, 30_000);

  it("refuses a template it does not advertise, a variable it does not have, and oversized arguments", async () => {
    const m = manager(mcpConfig({ notes: nodeServer(MODERN) }));
    await m.ensureStarted(need);
    await expect(expandTemplate(m, "notes", "notes://{other}", {})).rejects.toThrow('The MCP server "notes" does not advertise the template notes://{other} (it has: notes://{topic}).');
    await expect(completeTemplateArgument(m, { server: "notes", template: "notes://{topic}", argument: { name: "x", value: "" } }, new AbortController().signal)).rejects.toThrow(
      '"x" is not a variable of notes://{topic} (its variables: topic).',
    );
    await expect(expandTemplate(m, "notes", "notes://{topic}", { topic: "a".repeat(70_000) })).rejects.toThrow(/at most 65536 are allowed/);
    await expect(expandTemplate(m, "notes", "notes://{topic}", { topic: "a".repeat(5000) })).rejects.toThrow(/at most 4096 are allowed/);
    await expect(readMcpResource(m, "nope", "x://y", new AbortController().signal)).rejects.toThrow('There is no MCP server "nope". Configured: notes.');
  }, 30_000);
});

describe("servers that misbehave", () => {
  it("one that never answers server/discover speaks 2025-11-25 after the discover timeout", async () => {
    const m = manager(mcpConfig({ old: hostile("silent-discover") }, SILENT));
    await m.ensureStarted(need);
    expect(m.status("old")).toMatchObject({ state: "ready", protocolVersion: "2025-11-25", tools: 1 });
  }, 20_000);

  it("one that crashes mid-call: the call fails clearly, its tools stay offered meanwhile, and it is restarted", async () => {
    const log = tempLog();
    const m = manager(mcpConfig({ crashy: hostile("crash", log) }));
    await m.ensureStarted(need);
    const states: string[] = [];
    m.onChange(() => states.push(m.status("crashy")!.state));
    // Each start also runs the SDK's server/discover probe as a short-lived sibling process.
    const startsBefore = readFileSync(log, "utf8").match(/^started/gm)!.length;
    const result = callMcpTool(m, tool(m, "mcp__crashy__crash"), {}, new AbortController().signal, readCall);
    await expect(result).rejects.toThrow(/^The MCP server "crashy" closed the connection.*the call was lost and the server is being restarted$/);
    expect(states).toContain("restarting");
    await waitFor(() => m.status("crashy")?.state === "ready", 10_000);
    expect(textOf(await callMcpTool(m, tool(m, "mcp__crashy__echo"), { text: "back" }, new AbortController().signal, readCall))).toContain("echo: back");
    expect(readFileSync(log, "utf8").match(/^started/gm)!.length).toBeGreaterThan(startsBefore);
    // Its stderr went to the log, line by line, and the failure quoted its last line.
    expect(m.logger.lines).toContain("info mcp crashy: hostile server crash starting");
    expect(m.tools().map((t) => t.name)).toContain("mcp__crashy__crash");
  }, 20_000);

  it("one whose names and schemas need sanitising: names made safe, $ref inlined, an impossible schema left out with a warning", async () => {
    const m = manager(mcpConfig({ "odd.server": hostile("names") }));
    await m.ensureStarted(need);
    const names = m.tools().map((t) => t.name);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(names).toContain("mcp__odd_server__echo");
    expect(names.filter((n) => n.startsWith("mcp__odd_server__search_code"))).toHaveLength(2);
    expect(names.some((n) => n.startsWith("mcp__odd_server__very_long_"))).toBe(true);
    expect(tool(m, "mcp__odd_server__with_ref").inputSchema).toEqual({ type: "object", properties: { q: { type: "string", description: "query" } }, required: ["q"] });
    expect(names.some((n) => n.includes("not_an_object"))).toBe(false);
    expect(m.status("odd.server")!.warnings).toEqual([expect.stringMatching(/^not_an_object: left out because the server described it wrongly \(inputSchema.type: /)]);
  }, 20_000);

  it("one that returns 5 MB: the whole answer arrives (the tool layer cuts it to the budget)", async () => {
    const m = manager(mcpConfig({ big: hostile("big") }));
    await m.ensureStarted(need);
    const result = await callMcpTool(m, tool(m, "mcp__big__big"), {}, new AbortController().signal, readCall);
    const text = textOf(result);
    expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(text).toContain("TAIL");
  }, 20_000);

  it("one that hangs: cancelling sends notifications/cancelled and the call ends at once", async () => {
    const log = tempLog();
    const m = manager(mcpConfig({ slow: hostile("hang", log) }, SILENT));
    await m.ensureStarted(need);
    const controller = new AbortController();
    const call = callMcpTool(m, tool(m, "mcp__slow__hang"), {}, controller.signal, readCall);
    await waitFor(() => readFileSync(log, "utf8").includes("hanging"), 5000);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    await waitFor(() => readFileSync(log, "utf8").includes("cancelled"), 5000);
    expect(m.status("slow")!.state).toBe("ready");
  }, 20_000);

  it("one that answers with a line that is not JSON: the call fails within tool_timeout_s, the server stays usable", async () => {
    const m = manager(mcpConfig({ junk: { ...hostile("garbage"), tool_timeout_s: 0.5 } }));
    await m.ensureStarted(need);
    const call = callMcpTool(m, tool(m, "mcp__junk__garbage"), {}, new AbortController().signal, readCall);
    await expect(call).rejects.toThrow('The MCP server "junk" did not answer within 0.5 s');
    expect(textOf(await callMcpTool(m, tool(m, "mcp__junk__echo"), { text: "still here" }, new AbortController().signal, readCall))).toContain("echo: still here");
  }, 20_000);

  it("one that lies about its capabilities: ready, with the failed listings as warnings", async () => {
    const m = manager(mcpConfig({ liar: hostile("liar") }));
    await m.ensureStarted(need);
    const status = m.status("liar")!;
    expect(status.state).toBe("ready");
    expect(status.warnings.join("\n")).toContain("listing its resources failed");
    expect(status.warnings.join("\n")).toContain("listing its prompts failed");
  }, 20_000);

  it("a missing command, a misconfigured table and a refused approval each report on their own; the others work", async () => {
    const m = manager(
      mcpConfig({ gone: { command: "/nonexistent/mcp-server" }, broken: { command: "x", url: "https://h" }, fine: hostile("silent-discover"), mine: hostile("silent-discover") }, { ...SILENT, mcpProjectServers: { mine: "/p/.mcp.json" } }),
      { approve: async (spec) => (spec.name === "mine" ? "you declined it" : undefined) },
    );
    await m.ensureStarted(need);
    expect(m.status("gone")).toMatchObject({ state: "failed", error: expect.stringContaining("not found") });
    expect(m.status("broken")).toMatchObject({ state: "misconfigured", error: 'needs exactly one of "command" (a local server) or "url" (a remote one)' });
    expect(m.status("mine")).toMatchObject({ state: "not_approved", error: "you declined it" });
    expect(m.status("fine")!.state).toBe("ready");
  }, 20_000);

  it("a local server without cwd starts in the project, whatever folder agent-lsp runs in", async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "mcp-project-")));
    files.push(root);
    copyFileSync(HOSTILE, path.join(root, "server.mjs"));
    // "server.mjs" exists only in the project, not in the folder the tests run in.
    const m = manager(mcpConfig({ local: { command: process.execPath, args: ["server.mjs", "echo-only"] } }, SILENT), { root });
    await m.ensureStarted(need);
    expect(m.status("local")).toMatchObject({ state: "ready" });
  }, 20_000);

  it("a server that does not start in time fails with its timeout", async () => {
    const m = manager(mcpConfig({ hangs: { ...hostile("hang"), startup_timeout_s: 0.3 } }));
    // hang mode answers initialize but stays silent on server/discover: with a 0.3 s budget the fallback has no time left.
    await m.ensureStarted(need);
    expect(m.status("hangs")).toMatchObject({ state: "failed", error: expect.stringContaining("did not answer within 0.3 s") });
  }, 20_000);
});

/**
 * The pids the orphan server wrote: the server's and its detached grandchild's. The last line is
 * the real server's (the first is the SDK's discover probe, already ended); the probe's grandchild
 * carries the same marker and is ended by the same stop.
 */
async function orphanPids(log: string): Promise<number[]> {
  await waitFor(() => (readFileSync(log, "utf8").match(/grandchild/g) ?? []).length >= 2, 5000);
  const lines = [...readFileSync(log, "utf8").matchAll(/server (\d+) grandchild (\d+)/g)];
  const [, server, grandchild] = lines.at(-1)!.map(Number);
  return [server!, grandchild!, Number(lines[0]![2])];
}

describe("no orphans", () => {
  it("dispose ends the server and what it started outside its process group", async () => {
    if (process.platform !== "linux") return;
    const log = tempLog();
    const m = manager(mcpConfig({ parent: hostile("orphan", log) }));
    await m.ensureStarted(need);
    const pids = await orphanPids(log);
    expect(await survivors(pids)).toEqual(pids);
    await m.dispose();
    expect(await survivors(pids, 3000)).toEqual([]);
  }, 20_000);

  it("stopAllSync (exit handlers, signals) ends them too", async () => {
    if (process.platform !== "linux") return;
    const log = tempLog();
    const m = manager(mcpConfig({ parent: hostile("orphan", log) }));
    await m.ensureStarted(need);
    const pids = await orphanPids(log);
    const report = m.stopAllSync();
    expect(report.stopped).toEqual(expect.arrayContaining(pids));
    expect(await survivors(pids, 2000)).toEqual([]);
  }, 20_000);
});
