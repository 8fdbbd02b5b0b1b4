/**
 * Diagnostics after an edit: read at once, then polled until the servers have visibly published
 * and settled (or the wait is over); not waited for when no server is on the files; appended to
 * the result as errors and warnings of the changed files.
 */
import { describe, expect, it } from "vitest";
import type { LanguageService, LanguageServiceAnswer } from "../../../server/src/editor/language-service.js";
import { withEditDiagnostics } from "../../../server/src/tools/language/edit-diagnostics.js";
import type { ToolResult } from "../../../server/src/tools/types.js";

const ROOT = "/work/app";
const URI = "file:///work/app/src/a.ts";
const changed: ToolResult = { isError: false, content: [{ type: "text", text: "Edited src/a.ts" }], changedFiles: ["src/a.ts"] };
const error = { uri: URI, range: { start: { line: 4, character: 2 }, end: { line: 4, character: 3 } }, severity: 1, message: "x is not defined", source: "ts" };
const hint = { ...error, severity: 4, message: "could be const" };

/** A service whose diagnostics answers are `readings` in turn (the last one repeats). */
function scripted(readings: LanguageServiceAnswer[]): LanguageService & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    methods: ["textDocument/diagnostics"],
    asked,
    async request(_method, params) {
      asked.push(params);
      return readings[Math.min(asked.length - 1, readings.length - 1)]!;
    },
  };
}

const reading = (diagnostics: unknown[], servers = 1): LanguageServiceAnswer => ({ ok: true, result: { diagnostics, servers } });
const appended = (r: ToolResult) => (r.content.at(-1) as { text: string }).text;
const run = (service: LanguageService | undefined, result = changed, waitMs = 1500) => withEditDiagnostics(result, { service, root: ROOT, waitMs, signal: new AbortController().signal });

describe("withEditDiagnostics", () => {
  it("waits for the servers to publish, then for the diagnostics to settle, and appends errors and warnings only", async () => {
    const service = scripted([reading([]), reading([]), reading([error, hint]), reading([error, hint])]);
    const result = await run(service);
    expect(appended(result)).toBe("The editor's language servers report 1 error in the changed files:\nsrc/a.ts:5:3: error [ts] x is not defined");
    expect(service.asked).toEqual([{ uri: URI, waitMs: 1500 }, { uri: URI }, { uri: URI }, { uri: URI }]);
    expect(result.content[0]).toEqual(changed.content[0]);
  });

  it("takes the only reading when no language server is on the changed files, and says their diagnostics are unknown", async () => {
    const service = scripted([reading([], 0)]);
    expect(appended(await run(service))).toBe('Diagnostics of src/a.ts are unknown: no language server has src/a.ts open, so its errors are not known (not "no errors").');
    expect(service.asked).toHaveLength(1);
  });

  it("says which files are clean and which are unknown, and that a server which opened a file has not reported yet", async () => {
    const two: ToolResult = { ...changed, changedFiles: ["src/a.ts", "notes.txt"] };
    const byFile: LanguageService = {
      methods: ["textDocument/diagnostics"],
      async request(_method, params) {
        const uri = (params as { uri: string }).uri;
        return uri === URI ? { ok: true, result: { diagnostics: [], servers: 1 } } : { ok: true, result: { diagnostics: [], servers: 0 } };
      },
    };
    expect(appended(await run(byFile, two, 200))).toBe(
      "The editor's language servers report no errors or warnings in src/a.ts.\n" + 'Diagnostics of notes.txt are unknown: no language server has notes.txt open, so its errors are not known (not "no errors").',
    );
    const silent = scripted([{ ok: true, result: { diagnostics: [], servers: 1, opened: true, published: false } }]);
    expect(appended(await run(silent, changed, 200))).toBe('Diagnostics of src/a.ts are unknown: the language server opened src/a.ts but had not reported on it yet (not "no errors").');
  });

  it("a file the editor opened for its first report is not asked again", async () => {
    const service = scripted([{ ok: true, result: { diagnostics: [error], servers: 1, opened: true, published: true } }, reading([], 0)]);
    const result = await run(service, changed, 400);
    expect(appended(result)).toBe("The editor's language servers report 1 error in the changed files:\nsrc/a.ts:5:3: error [ts] x is not defined");
    expect(service.asked).toEqual([{ uri: URI, waitMs: 400 }]);
  });

  it("takes the last reading at the deadline when nothing changes", async () => {
    const service = scripted([reading([error])]);
    expect(appended(await run(service, changed, 250))).toContain("1 error");
    expect(service.asked.length).toBeGreaterThan(1);
    expect(service.asked.length).toBeLessThan(5);
  });

  it("says so when the diagnostics cannot be read", async () => {
    const service = scripted([{ ok: false, reason: "No answer within 5 s." }]);
    expect(appended(await run(service))).toBe("Could not read the editor's diagnostics: No answer within 5 s.");
  });

  it("leaves alone a failed result, one that changed no file, and an editor without diagnostics", async () => {
    const service = scripted([reading([error])]);
    const failed = { ...changed, isError: true };
    const readOnly: ToolResult = { isError: false, content: [{ type: "text", text: "read" }] };
    expect(await run(service, failed)).toBe(failed);
    expect(await run(service, readOnly)).toBe(readOnly);
    expect(await run(undefined)).toBe(changed);
    expect(await run({ ...service, methods: ["textDocument/hover"] })).toBe(changed);
    expect(service.asked).toEqual([]);
  });
});
