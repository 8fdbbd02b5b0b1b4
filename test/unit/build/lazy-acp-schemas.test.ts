/**
 * The build's lazy-acp-schemas plugin (server/build.mjs): the ACP SDK's generated schemas, built
 * on first use in the bundle, rewrite every schema of the real file, refuse a file of another
 * shape, and validate every message exactly as the schemas built eagerly do.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lazyAcpSchemas, lazyZodGenSource } from "../../../server/build.mjs";

type Schema = { safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: unknown[] } } };
type Guard = Record<string, (value: unknown) => boolean>;
interface Bundle {
  validate: Record<string, Schema>;
  guards: Record<string, Guard>;
}

const SCHEMA_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve("@agentclientprotocol/sdk")), "..", "schema");
const ZOD_GEN = path.join(SCHEMA_DIR, "zod.gen.js");

let tmp: string;
let eager: Bundle;
let lazy: Bundle;

/** The SDK's schemas and guards, bundled as the server bundles them, with `plugins`. */
async function bundle(name: string, plugins: Plugin[]): Promise<Bundle> {
  const file = path.join(tmp, `${name}.mjs`);
  await build({
    stdin: {
      contents: `export * as validate from ${JSON.stringify(ZOD_GEN)};\nexport { CreateElicitationRequest, CreateElicitationResponse, ElicitationPropertySchema, MultiSelectItems } from ${JSON.stringify(path.join(SCHEMA_DIR, "guards.gen.js"))};`,
      resolveDir: SCHEMA_DIR,
    },
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: file,
    plugins,
    logLevel: "silent",
  });
  const { validate, ...guards } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Bundle["guards"] & { validate: Bundle["validate"] };
  return { validate, guards } as Bundle;
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-lazy-acp-"));
  [eager, lazy] = await Promise.all([bundle("eager", []), bundle("lazy", [lazyAcpSchemas])]);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cwd = "/home/u/project";
const text = { type: "text", text: "hi" };
const customElicitation = { sessionId: "s1", mode: "x-vendor", message: "Pick", palette: ["red"], nested: { a: 1 } };
/** [schema, value]: valid and invalid ACP messages, the ways the server receives and sends them. */
const MESSAGES: Array<[string, unknown]> = [
  ["zInitializeRequest", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } }],
  ["zInitializeRequest", { protocolVersion: "one" }],
  ["zNewSessionRequest", { cwd, mcpServers: [] }],
  ["zNewSessionRequest", { cwd: 42, mcpServers: [] }],
  ["zNewSessionRequest", { cwd, mcpServers: null, _meta: "not a record" }],
  ["zNewSessionRequest", { cwd }],
  ["zNewSessionRequest", { cwd, mcpServers: [{ name: "fs", command: "npx", args: ["-y", "server"], env: [{ name: "K", value: "v" }] }, { type: "http", name: "h", url: "https://x.test/mcp", headers: [] }] }],
  ["zNewSessionRequest", { cwd, mcpServers: [{ type: "sse", name: "s" }] }],
  ["zPromptRequest", { sessionId: "s1", prompt: [text, { type: "resource_link", uri: "file:///a.ts", name: "a.ts" }, { type: "image", data: "AAAA", mimeType: "image/png" }] }],
  ["zPromptRequest", { sessionId: "s1", prompt: [text, { type: "video", uri: "file:///a.mp4" }] }],
  ["zPromptRequest", { sessionId: "s1", prompt: [{ type: "resource", resource: { uri: "file:///a.ts", text: "x" } }] }],
  ["zPromptRequest", { sessionId: 7, prompt: "hi" }],
  ["zCancelNotification", { sessionId: "s1" }],
  ["zCancelNotification", { sessionId: null }],
  ["zSetSessionModeRequest", { sessionId: "s1", modeId: "ask" }],
  ["zSessionNotification", { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: text } }],
  ["zSessionNotification", { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read", kind: "read", status: "pending", locations: [{ path: "/a" }] } }],
  ["zSessionNotification", { sessionId: "s1", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "init", description: "x", input: { hint: "h" } }] } }],
  ["zSessionNotification", { sessionId: "s1", update: { sessionUpdate: "no_such_update" } }],
  ["zRequestPermissionRequest", { sessionId: "s1", toolCall: { toolCallId: "t1" }, options: [{ optionId: "a", name: "Allow", kind: "allow_once" }] }],
  ["zRequestPermissionRequest", { sessionId: "s1", toolCall: { toolCallId: "t1" }, options: [{ optionId: "a", name: "Allow", kind: "sometimes" }] }],
  ["zRequestPermissionResponse", { outcome: { outcome: "selected", optionId: "a" } }],
  // Extensible unions: a custom variant keeps its payload, a malformed known one fails.
  ["zCreateElicitationRequest", customElicitation],
  ["zCreateElicitationRequest", { sessionId: "s1", mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" }, color: { type: "x-color", swatches: 3 } } } }],
  ["zCreateElicitationRequest", { sessionId: "s1", mode: "url", message: "Sign in" }],
  ["zCreateElicitationResponse", { action: "accept", content: { name: "n" } }],
  ["zCreateElicitationResponse", { action: "x-later", when: "soon" }],
  ["zElicitationPropertySchema", { type: "array", items: { type: "x-tags", free: true } }],
  ["zMultiSelectItems", { type: "string", enum: ["a", "b"] }],
  ["zClientNotification", { method: "session/cancel", params: { sessionId: "s1" } }],
  ["zAgentNotification", { method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "plan", entries: [] } } }],
];
/** Values every schema is also tried with. */
const GENERIC: unknown[] = [undefined, null, 0, 1.5, "", "x", true, [], {}, [{}], { type: "text" }, { sessionId: "s1" }];

/** What a parse leaves to the caller: the data, or the issues (paths, codes, messages). */
function outcome(schema: Schema, value: unknown): unknown {
  const result = schema.safeParse(structuredClone(value));
  return result.success ? { data: result.data } : { issues: result.error!.issues };
}

describe("lazy-acp-schemas", () => {
  it("rewrites every `export const z` of the SDK's zod.gen.js as z.lazy", () => {
    const source = readFileSync(ZOD_GEN, "utf8");
    const { code, count } = lazyZodGenSource(source, ts);
    const names = Object.keys(eager.validate);
    expect(count).toBe(source.match(/^export const z/gm)!.length);
    expect(count).toBe(names.length);
    expect(count).toBe(178); // @agentclientprotocol/sdk 2.4.0
    expect(code.match(/^export const z\w+ = z\.lazy\(\(\) => \(/gm)!.length).toBe(count);
    for (const name of names) expect(lazy.validate[name]!.constructor.name, name).toBe("ZodLazy");
  });

  it("validates every ACP message as the eager schemas do", () => {
    for (const [name, value] of MESSAGES) {
      expect(outcome(lazy.validate[name]!, value), `${name} ${JSON.stringify(value)}`).toStrictEqual(outcome(eager.validate[name]!, value));
    }
    // the table has both kinds, and the custom variant kept its payload
    const results = MESSAGES.map(([name, value]) => lazy.validate[name]!.safeParse(value).success);
    expect(results.filter(Boolean).length).toBeGreaterThan(10);
    expect(results.filter((ok) => !ok).length).toBeGreaterThan(8);
    expect(lazy.validate.zCreateElicitationRequest!.safeParse(customElicitation).data).toMatchObject({ palette: ["red"], nested: { a: 1 } });
  });

  it("gives every schema the same result as its eager self for any value", () => {
    const values = [...GENERIC, ...MESSAGES.map(([, value]) => value)];
    for (const name of Object.keys(eager.validate)) {
      for (const value of values) {
        expect(outcome(lazy.validate[name]!, value), `${name} ${JSON.stringify(value)}`).toStrictEqual(outcome(eager.validate[name]!, value));
      }
    }
  });

  it("leaves the SDK's type guards (built with .and over the schemas) as they were", () => {
    const values = [...GENERIC, ...MESSAGES.map(([, value]) => value)];
    for (const [union, guard] of Object.entries(eager.guards)) {
      for (const [check, fn] of Object.entries(guard)) {
        for (const value of values) expect(lazy.guards[union]![check]!(value), `${union}.${check} ${JSON.stringify(value)}`).toBe(fn(value));
      }
    }
  });

  it("rewrites multi-line expressions whole, whatever their strings and comments hold", () => {
    const source = [
      'import * as z from "zod/v4";',
      "/** export const zNo = 1; */",
      'export const zA = z.string().describe("a; }) // b");',
      "export const zB = z.object({ // ; })",
      "  a: zA, /* ; */ b: z.literal(`;\n}`),",
      "}).nullish();",
      "export const zC = z.union([zA, zB]);",
    ].join("\n");
    const { code, count } = lazyZodGenSource(source, ts);
    expect(count).toBe(3);
    expect(code).toContain('export const zA = z.lazy(() => (z.string().describe("a; }) // b")));');
    expect(code).toContain("export const zB = z.lazy(() => (z.object({ // ; })\n  a: zA, /* ; */ b: z.literal(`;\n}`),\n}).nullish()));");
    expect(code).toContain("export const zC = z.lazy(() => (z.union([zA, zB])));");
  });

  it("refuses a file of another shape, and the build fails with the reason", async () => {
    const head = 'import * as z from "zod/v4";\n';
    const shape = /expected imports and `export const zName = <schema>;` alone, found at line \d+: /;
    const refused: Array<[string, RegExp]> = [
      [`${head}export const zA = z.string(), zB = z.number();`, shape],
      [`${head}const zA = z.string();\nexport const zB = zA.optional();`, shape],
      [`${head}export let zA = z.string();`, shape],
      [`${head}export const zA = z.string();\nexport function helper() {}`, shape],
      [`${head}export const zA = z.string();\nzA.register(z.globalRegistry, {});`, shape],
      ['import { z } from "zod";\nexport const zA = z.string();', /expected `import \* as z from "zod\/v4"`/],
      [`${head}export const zA = z.string(;`, /does not parse/],
      [`${head}export const zA = \`\nexport const zB = 1\`;`, /rewrote 1 schemas of the 2 `export const z`/],
      [head, /rewrote 0 schemas of the 0/],
    ];
    for (const [source, reason] of refused) expect(() => lazyZodGenSource(source, ts), source).toThrow(reason);
    // the plugin's own failure, on a file at the SDK's path
    const dir = path.join(tmp, "node_modules", "@agentclientprotocol", "sdk", "dist", "v1", "schema");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "zod.gen.js"), refused[1]![0]);
    const failed = build({ stdin: { contents: 'export * from "./zod.gen.js";', resolveDir: dir }, bundle: true, write: false, external: ["zod"], plugins: [lazyAcpSchemas], logLevel: "silent" });
    await expect(failed).rejects.toThrow(/lazy-acp-schemas: .*zod\.gen\.js: expected imports and/);
  });

  it("fails a build that no longer takes the SDK's zod.gen.js", async () => {
    const failed = build({ stdin: { contents: "export const a = 1;" }, write: false, plugins: [lazyAcpSchemas], logLevel: "silent" });
    await expect(failed).rejects.toThrow(/lazy-acp-schemas: the bundle took no/);
  });
});
