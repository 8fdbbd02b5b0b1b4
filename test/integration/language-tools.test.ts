/**
 * The language tools over the whole LSP stack: the model calls a tool, the server sends
 * agent/languageService, the test client answers from a real second language server (the toy
 * server, a separate process), and the answer reaches the model. Rename goes through the
 * Workspace (reviewed, all files or none); an edit that breaks something brings the editor's
 * diagnostic back in its result; a client that declares nothing gets none of these tools.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ResponseError, type ClientCapabilities } from "vscode-languageserver/node.js";
import { LANGUAGE_SERVICE_METHODS } from "../../server/src/protocol/method-names.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";
import { startToyServer, type ToyServer } from "../helpers/toy-lsp/toy-server.js";

let h: AgentHarness;
let toy: ToyServer | undefined;
afterEach(async () => {
  await toy?.close();
  toy = undefined;
  await h?.dispose();
});

const SERVES_ALL = { ...defaultCapabilities(), experimental: { agent: { requestPermission: true, languageService: [...LANGUAGE_SERVICE_METHODS] } } } as ClientCapabilities;
const at = (rel: string) => path.join(h.root, rel);
const uriOf = (rel: string) => pathToFileURL(at(rel)).href;

const LIB = "def greet = hello\ndef hello = world\ndef world = world\n";
const MAIN = "def main = greet\nuse greet twice greet\n";

/** A project of two toy files, open in the "editor" and in the toy server, and a session. */
async function start(options: { safety?: string; capabilities?: ClientCapabilities; toyEnv?: Record<string, string>; extra?: Record<string, unknown> } = {}): Promise<string> {
  h = await startAgentHarness({
    options: { tools: { provider_native: false, ...(options.extra ?? {}) }, safety: options.safety ?? "full_access" },
    capabilities: options.capabilities ?? SERVES_ALL,
  });
  writeFileSync(at("lib.toy"), LIB);
  writeFileSync(at("main.toy"), MAIN);
  // `use` and `twice` are defined so that main.toy starts without errors.
  writeFileSync(at("words.toy"), "def use = 1\ndef twice = 2\n");
  toy = await startToyServer(h.root, options.toyEnv);
  const server = toy;
  h.client.onDocument = (uri, text) => server.sync(uri, text);
  h.client.script.languageService = (p) => server.serve(p.method, p.params);
  h.client.open(uriOf("lib.toy"), LIB);
  h.client.open(uriOf("main.toy"), MAIN);
  return h.newSession();
}

/** Runs one tool call through the model; returns the result text the model got back. */
async function call(sessionId: string, name: string, input: Record<string, unknown>): Promise<string> {
  h.fake.enqueue({ toolCalls: [{ name, input }] }, { text: "ok" });
  await h.prompt(sessionId, `use ${name}`);
  const messages = h.fake.requests.at(-1)!.body.messages as any[];
  const result = messages.at(-1).content.find((b: any) => b.type === "tool_result");
  return typeof result.content === "string" ? result.content : result.content.map((c: any) => c.text).join("\n");
}

const offeredTools = () => (h.fake.requests.at(-1)!.body.tools as { name: string }[]).map((t) => t.name);

describe("language tools through agent/languageService", () => {
  it("find_references: the model's question reaches the other server and its answer the model, sorted with line texts", async () => {
    const id = await start();
    const text = await call(id, "find_references", { path: "main.toy", line: 2, symbol: "greet" });
    expect(text).toBe(
      ["4 references:", "lib.toy:1:5: def greet = hello", "main.toy:1:12: def main = greet", "main.toy:2:5: use greet twice greet", "main.toy:2:17: use greet twice greet"].join("\n"),
    );
    const asked = h.client.requests.find((r) => r.method === "agent/languageService")!.params;
    expect(asked).toEqual({ method: "textDocument/references", params: { textDocument: { uri: uriOf("main.toy") }, position: { line: 1, character: 4 }, context: { includeDeclaration: true } } });
  });

  it("offers every language tool to a client that serves them, and none to one that declares nothing", async () => {
    let id = await start();
    await call(id, "get_diagnostics", {});
    expect(offeredTools()).toEqual(expect.arrayContaining(["find_definition", "find_references", "rename_symbol", "document_symbols", "hover", "get_diagnostics"]));
    // The system prompt points the model at them (and away from grep for symbols).
    expect(JSON.stringify(h.fake.requests.at(-1)!.body.system)).toContain("The editor's own language servers answer find_definition, find_references, hover, document_symbols, rename_symbol, get_diagnostics");
    await toy!.close();
    toy = undefined;
    await h.dispose();
    id = await start({ capabilities: defaultCapabilities() });
    const text = await call(id, "find_references", { path: "main.toy", line: 2, symbol: "greet" });
    expect(text).toContain('There is no tool "find_references"');
    for (const name of ["find_definition", "find_references", "rename_symbol", "document_symbols", "hover", "get_diagnostics"]) expect(offeredTools()).not.toContain(name);
    expect(h.client.requests.some((r) => r.method === "agent/languageService")).toBe(false);
    expect(JSON.stringify(h.fake.requests.at(-1)!.body.system)).not.toContain("language servers answer");
  });

  it("find_definition at a place and by name, hover and document_symbols", async () => {
    const id = await start();
    expect(await call(id, "find_definition", { path: "main.toy", line: 1, column: 12 })).toBe("1 definition:\nlib.toy:1:5: def greet = hello");
    expect(await call(id, "find_definition", { symbol: "hello" })).toBe("1 definition:\nlib.toy:2:5: def hello = world");
    expect(await call(id, "hover", { path: "main.toy", line: 2, symbol: "twice" })).toBe("toy definition\n\n    def twice = 2");
    expect(await call(id, "document_symbols", { path: "lib.toy" })).toBe("3 symbols in lib.toy:\n1:5 function greet def\n2:5 function hello def\n3:5 function world def");
  });

  it("rename_symbol: one reviewed change set across both files, applied in the editor's buffers", async () => {
    const id = await start({ safety: "ask" });
    const asked: any[] = [];
    h.client.script.requestPermission = (p) => {
      asked.push(p);
      return { optionId: "allow_once" };
    };
    const text = await call(id, "rename_symbol", { path: "lib.toy", line: 1, symbol: "greet", new_name: "salute" });
    expect(text).toMatch(/^Renamed to salute: 4 edits in 2 files:\n {2}lib\.toy \(1 edit\)\n {2}main\.toy \(3 edits\)\n/);
    expect(asked).toHaveLength(1);
    expect(asked[0].files.map((f: { uri: string }) => f.uri).sort()).toEqual([uriOf("lib.toy"), uriOf("main.toy")]);
    expect(h.client.text(uriOf("lib.toy"))).toBe(LIB.replace("greet", "salute"));
    expect(h.client.text(uriOf("main.toy"))).toBe(MAIN.replaceAll("greet", "salute"));
  });

  it("a rename the user rejects changes nothing", async () => {
    const id = await start({ safety: "ask" });
    h.client.script.requestPermission = () => ({ optionId: "reject" });
    const text = await call(id, "rename_symbol", { path: "lib.toy", line: 1, symbol: "greet", new_name: "salute" });
    expect(text).toMatch(/declined|not allowed|rejected/i);
    expect(h.client.text(uriOf("lib.toy"))).toBe(LIB);
    expect(h.client.text(uriOf("main.toy"))).toBe(MAIN);
    expect(readFileSync(at("main.toy"), "utf8")).toBe(MAIN);
  });

  it("an edit that introduces an error brings the editor's diagnostic back in the tool's result", async () => {
    const id = await start();
    const text = await call(id, "edit_file", { path: "main.toy", target_content: "use greet twice greet", replacement_content: "use greet thrice greet" });
    expect(text).toContain("The editor's language servers report 1 error in the changed files:\nmain.toy:2:11: error [toy] unknown name 'thrice'");
  });

  it("an edit that breaks nothing says so, and diagnostics_after_edit = false appends nothing", async () => {
    let id = await start();
    let text = await call(id, "edit_file", { path: "main.toy", target_content: "twice", replacement_content: "use" });
    expect(text).toContain("The editor's language servers report no errors or warnings in the changed files.");
    await toy!.close();
    toy = undefined;
    await h.dispose();
    id = await start({ extra: { diagnostics_after_edit: false } });
    text = await call(id, "edit_file", { path: "main.toy", target_content: "use greet twice greet", replacement_content: "use greet thrice greet" });
    expect(text).not.toContain("language servers");
    expect(h.client.requests.some((r) => r.method === "agent/languageService")).toBe(false);
  });

  it("get_diagnostics of one file and of every open file", async () => {
    const id = await start();
    h.client.change(uriOf("lib.toy"), "def greet = nowhere\n");
    await expect.poll(() => toy!.diagnostics.get(uriOf("lib.toy"))?.length).toBeGreaterThan(0);
    expect(await call(id, "get_diagnostics", { path: "lib.toy" })).toBe("1 error in lib.toy:\nlib.toy:1:13: error [toy] unknown name 'nowhere'");
    // main.toy now uses nothing undefined except through lib.toy, which lost hello/world.
    expect(await call(id, "get_diagnostics", {})).toMatch(/^1 error in the open files:\nlib\.toy:1:13/);
  });

  it("a file no language server has open: its diagnostics are unknown, never 'no errors' (get_diagnostics and after an edit)", async () => {
    const id = await start();
    writeFileSync(at("broken.toy"), "def x = nowhere\n");
    const text = await call(id, "get_diagnostics", { path: "broken.toy" });
    expect(text).toMatch(/^Unknown: no language server has broken\.toy open, so its errors are not known\./);
    expect(text).not.toMatch(/No diagnostics|no errors in/i);
    const asked = h.client.requests.filter((r) => r.method === "agent/languageService").at(-1)!.params;
    expect(asked).toEqual({ method: "textDocument/diagnostics", params: { uri: uriOf("broken.toy"), waitMs: 1500 } });
    const edited = await call(id, "edit_file", { path: "broken.toy", target_content: "nowhere", replacement_content: "elsewhere" });
    expect(edited).toContain('Diagnostics of broken.toy are unknown: no language server has broken.toy open, so its errors are not known (not "no errors").');
    expect(edited).not.toContain("report no errors");
  });

  it("bad input and failures are tool results that say so", async () => {
    const id = await start();
    expect(await call(id, "find_references", { path: "main.toy", line: 40, column: 1 })).toBe("Line 40 is outside main.toy, which has 2 line(s).");
    expect(await call(id, "find_references", { path: "main.toy", line: 2, column: 99 })).toBe("Column 99 is outside line 2 of main.toy, which has 21 character(s).");
    expect(await call(id, "find_references", { path: "main.toy", line: 2, symbol: "absent" })).toMatch(/^"absent" is not on line 2 of main\.toy/);
    h.client.change(uriOf("main.toy"), "use explode\n");
    expect(await call(id, "find_references", { path: "main.toy", line: 1, symbol: "explode" })).toBe("The editor's language server failed: the toy server exploded");
    h.client.script.languageService = () => {
      throw new ResponseError(-32803, "no language server is attached to main.toy");
    };
    expect(await call(id, "hover", { path: "main.toy", line: 1, column: 1 })).toBe("The editor's language server failed: no language server is attached to main.toy");
  });

  it("a server that does not answer in time is a tool result, and the request is withdrawn", async () => {
    const id = await start({ toyEnv: { TOY_LSP_DELAY_MS: "3000" }, extra: { language_service_timeout_s: 0.3 } });
    const text = await call(id, "find_references", { path: "main.toy", line: 2, symbol: "greet" });
    expect(text).toBe("The editor's language servers did not answer textDocument/references (No answer within 0.3 s.)");
    expect(h.client.cancelledRequests()).toContain("agent/languageService");
  });
});
