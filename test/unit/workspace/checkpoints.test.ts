import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeProject, type Project } from "./setup.js";

let p: Project;
afterEach(() => p?.dispose());

const S = "s1";
const write = (path: string, text: string) => ({ kind: "write" as const, path, text });

describe("checkpoints, /undo and /restore", () => {
  it("saves prior contents (and 'did not exist') under .agent-lsp/checkpoints/<id>/", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a0\n");
    const r = await p.ws.apply({ tool: "edit_file", ops: [write("a.txt", "a1\n"), write("n.txt", "n\n")] }, { sessionId: S });
    const [cp] = await p.ws.listCheckpoints(S);
    expect(cp!.id).toBe(r.checkpointId);
    expect(cp).toMatchObject({ sessionId: S, tool: "edit_file", kind: "change" });
    expect(cp!.files.map((f) => [f.path, f.existed])).toEqual([
      ["a.txt", true],
      ["n.txt", false],
    ]);
    const copy = p.at(`.agent-lsp/checkpoints/${cp!.id}/${cp!.files[0]!.copy}`);
    expect(readFileSync(copy, "utf8")).toBe("a0\n");
    expect(existsSync(p.at(`.agent-lsp/checkpoints/${cp!.id}/manifest.json`))).toBe(true);
  });

  it("/undo reverts the last change set, then the one before, deleting created files and folders", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a0\n");
    await p.ws.apply({ tool: "t", ops: [write("a.txt", "a1\n")] }, { sessionId: S });
    await p.ws.apply({ tool: "t", ops: [write("a.txt", "a2\n"), write("new/deep/n.txt", "n\n")] }, { sessionId: S });
    const first = await p.ws.undo(S);
    expect(first!.result.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual(["D new/deep/n.txt", "M a.txt"]);
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a1\n");
    expect(existsSync(p.at("new"))).toBe(false);
    await p.ws.undo(S);
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a0\n");
    expect(await p.ws.undo(S)).toBeUndefined();
  });

  it("/undo only touches this session's changes", async () => {
    p = makeProject();
    await p.ws.apply({ tool: "t", ops: [write("mine.txt", "m\n")] }, { sessionId: S });
    await p.ws.apply({ tool: "t", ops: [write("theirs.txt", "t\n")] }, { sessionId: "other" });
    await p.ws.undo(S);
    expect(existsSync(p.at("mine.txt"))).toBe(false);
    expect(existsSync(p.at("theirs.txt"))).toBe(true);
  });

  it("/restore returns every file changed since a checkpoint to its state then, and can be undone", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a0\n");
    writeFileSync(p.at("untouched.txt"), "u0\n");
    const one = await p.ws.apply({ tool: "t", ops: [write("a.txt", "a1\n")] }, { sessionId: S });
    await p.ws.apply({ tool: "t", ops: [write("a.txt", "a2\n"), write("created.txt", "c\n")] }, { sessionId: S });
    await p.ws.apply({ tool: "t", ops: [{ kind: "delete", path: "a.txt" }] }, { sessionId: S });
    writeFileSync(p.at("untouched.txt"), "u1 by the user\n");

    const restored = await p.ws.restore(S, one.checkpointId!);
    expect(restored.reverted).toHaveLength(3);
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a0\n");
    expect(existsSync(p.at("created.txt"))).toBe(false);
    expect(readFileSync(p.at("untouched.txt"), "utf8")).toBe("u1 by the user\n");

    const cps = await p.ws.listCheckpoints(S);
    expect(cps.at(-1)).toMatchObject({ kind: "restore", id: restored.result.checkpointId });
    await p.ws.undo(S);
    expect(existsSync(p.at("a.txt"))).toBe(false);
    expect(readFileSync(p.at("created.txt"), "utf8")).toBe("c\n");
  });

  it("restores an open document through applyEdit, not the disk", async () => {
    p = makeProject();
    writeFileSync(p.at("o.ts"), "disk\n");
    p.editor.open(p.at("o.ts"), "buffer v1\n");
    const r = await p.ws.apply({ tool: "t", ops: [write("o.ts", "buffer v2\n")] }, { sessionId: S });
    expect(r.files[0]!.via).toBe("editor");
    await p.ws.restore(S, r.checkpointId!);
    expect(p.editor.textOf(p.at("o.ts"))).toBe("buffer v1\n");
    expect(readFileSync(p.at("o.ts"), "utf8")).toBe("disk\n");
    expect(p.editor.applyCalls).toHaveLength(2);
  });

  it("restores exact bytes: BOM, CRLF and mode", async () => {
    p = makeProject();
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("x\r\ny\r\n")]);
    writeFileSync(p.at("b.txt"), original);
    await p.ws.apply({ tool: "t", ops: [write("b.txt", "z\n")] }, { sessionId: S });
    await p.ws.undo(S);
    expect(readFileSync(p.at("b.txt")).equals(original)).toBe(true);
  });

  it("refuses an unknown checkpoint id", async () => {
    p = makeProject();
    await expect(p.ws.restore(S, "nope")).rejects.toThrow("There is no checkpoint nope in this session");
  });

  it("undoes a created folder", async () => {
    p = makeProject();
    await p.ws.apply({ tool: "create_directory", ops: [{ kind: "mkdir", path: "x/y" }] }, { sessionId: S });
    expect(existsSync(p.at("x/y"))).toBe(true);
    await p.ws.undo(S);
    expect(existsSync(p.at("x"))).toBe(false);
  });
});

describe("a damaged checkpoint", () => {
  it("is reported as damaged, not as 'no such checkpoint'", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a0\n");
    const r = await p.ws.apply({ tool: "t", ops: [write("a.txt", "a1\n")] }, { sessionId: S });
    writeFileSync(p.at(`.agent-lsp/checkpoints/${r.checkpointId}/manifest.json`), "{ torn");
    await expect(p.ws.restore(S, r.checkpointId!)).rejects.toThrow(`Checkpoint ${r.checkpointId} is damaged`);
    await expect(p.ws.undo(S)).rejects.toThrow("not valid JSON");
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a1\n");
  });
});
