import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceError } from "../../../server/src/workspace/errors.js";
import { makeProject, type Project } from "./setup.js";

let p: Project;
afterEach(() => p?.dispose());

const S = "s1";

describe("Workspace.apply to closed files", () => {
  it("writes atomically, creates parents, reports A/M and leaves no temp file", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "one\ntwo\n");
    const r = await p.ws.apply(
      { tool: "test", ops: [{ kind: "write", path: "a.txt", text: "one\n2\n" }, { kind: "write", path: "new/dir/b.txt", text: "b\n" }] },
      { sessionId: S, authorize: p.authorize },
    );
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("one\n2\n");
    expect(readFileSync(p.at("new/dir/b.txt"), "utf8")).toBe("b\n");
    expect(r.files.map((f) => `${f.status} ${f.path} ${f.via}`)).toEqual(["M a.txt disk", "A new/dir/b.txt disk"]);
    expect(r.diff).toContain("-two\n+2\n");
    expect(r.diff).toContain("--- /dev/null\n+++ b/new/dir/b.txt");
    expect(readdirSync(p.root).filter((n) => n.includes("agent-lsp-tmp"))).toEqual([]);
    expect(p.asked).toHaveLength(1);
    expect(p.asked[0]).toMatchObject({ kind: "file_change", external: false });
    expect(p.asked[0]!.kind === "file_change" && p.asked[0]!.summary).toBe("test: a.txt, new/dir/b.txt (+2 -1)");
  });

  it("keeps CRLF line endings, a BOM and the mode bits", async () => {
    p = makeProject();
    writeFileSync(p.at("w.txt"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\r\nb\r\n")]));
    chmodSync(p.at("w.txt"), 0o751);
    const read = await p.ws.readText("w.txt");
    expect(read.text).toBe("a\r\nb\r\n");
    expect(read.bom).toBe(true);
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "w.txt", text: "a\nB\nc\n" }] }, { sessionId: S });
    const bytes = readFileSync(p.at("w.txt"));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString()).toBe("a\r\nB\r\nc\r\n");
    expect(statSync(p.at("w.txt")).mode & 0o777).toBe(0o751);
  });

  it("leaves mixed line endings as the text has them", async () => {
    p = makeProject();
    writeFileSync(p.at("m.txt"), "a\r\nb\nc\r\n");
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "m.txt", text: "a\r\nB\nc\r\n" }] }, { sessionId: S });
    expect(readFileSync(p.at("m.txt"), "utf8")).toBe("a\r\nB\nc\r\n");
  });

  it("deletes and moves files, keeping the moved file's mode", async () => {
    p = makeProject();
    writeFileSync(p.at("gone.txt"), "x");
    writeFileSync(p.at("old.sh"), "echo\n");
    chmodSync(p.at("old.sh"), 0o755);
    const r = await p.ws.apply(
      { tool: "t", ops: [{ kind: "delete", path: "gone.txt" }, { kind: "move", from: "old.sh", to: "bin/new.sh", text: "echo hi\n" }] },
      { sessionId: S },
    );
    expect(existsSync(p.at("gone.txt"))).toBe(false);
    expect(existsSync(p.at("old.sh"))).toBe(false);
    expect(readFileSync(p.at("bin/new.sh"), "utf8")).toBe("echo hi\n");
    expect(statSync(p.at("bin/new.sh")).mode & 0o777).toBe(0o755);
    expect(r.files.map((f) => `${f.status} ${f.path}${f.from ? ` <- ${f.from}` : ""}`)).toEqual(["D gone.txt", "R bin/new.sh <- old.sh"]);
    expect(r.diff).toContain("--- a/old.sh\n+++ b/bin/new.sh");
  });

  it("changes nothing and makes no checkpoint when the text is the same", async () => {
    p = makeProject();
    writeFileSync(p.at("same.txt"), "x\n");
    const r = await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "same.txt", text: "x\n" }] }, { sessionId: S, authorize: p.authorize });
    expect(r.changed).toBe(false);
    expect(p.asked).toHaveLength(0);
    expect(await p.ws.listCheckpoints(S)).toEqual([]);
  });
});

describe("Workspace.apply and the gate", () => {
  it("a denial changes nothing and its reason is the error", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a\n");
    p.answer = () => ({ allowed: false, reason: "the user said no" });
    await expect(
      p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "b\n" }] }, { sessionId: S, authorize: p.authorize }),
    ).rejects.toThrow("The change was not applied: the user said no");
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a\n");
    expect(await p.ws.listCheckpoints(S)).toEqual([]);
  });

  it("applies the text the user accepted in review instead of the proposal", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "1\n2\n");
    writeFileSync(p.at("b.txt"), "x\n");
    p.answer = (a) =>
      a.kind === "file_change"
        ? { allowed: true, accepted: [{ uri: a.files[0]!.uri, text: "1\ntwo (trimmed)\n" }, { uri: a.files[1]!.uri, text: "x\n" }] }
        : { allowed: true };
    const r = await p.ws.apply(
      { tool: "t", ops: [{ kind: "write", path: "a.txt", text: "one\ntwo\n" }, { kind: "write", path: "b.txt", text: "y\n" }] },
      { sessionId: S, authorize: p.authorize },
    );
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("1\ntwo (trimmed)\n");
    expect(readFileSync(p.at("b.txt"), "utf8")).toBe("x\n");
    expect(r.files.map((f) => f.path)).toEqual(["a.txt"]);
  });
});

describe("Workspace.apply to open documents", () => {
  it("edits the unsaved buffer through one applyEdit and leaves the disk alone", async () => {
    p = makeProject();
    writeFileSync(p.at("a.ts"), "const a = 1;\n");
    p.editor.open(p.at("a.ts"), "const a = 1;\nconst unsaved = true;\n", 7);
    const read = await p.ws.readText("a.ts");
    expect(read).toMatchObject({ source: "buffer", version: 7 });
    const r = await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.ts", text: read.text.replace("1", "2") }] }, { sessionId: S });
    expect(p.editor.textOf(p.at("a.ts"))).toBe("const a = 2;\nconst unsaved = true;\n");
    expect(readFileSync(p.at("a.ts"), "utf8")).toBe("const a = 1;\n");
    expect(p.editor.applyCalls).toHaveLength(1);
    expect(p.editor.applyCalls[0]!.changes).toEqual([
      expect.objectContaining({ kind: "edit", version: 7, oldText: "const a = 1;\nconst unsaved = true;\n" }),
    ]);
    expect(r.files[0]).toMatchObject({ via: "editor", status: "M" });
  });

  it("a refused applyEdit leaves every file (open or not) unchanged and says so", async () => {
    p = makeProject();
    writeFileSync(p.at("open.ts"), "disk\n");
    writeFileSync(p.at("closed.ts"), "closed\n");
    p.editor.open(p.at("open.ts"), "buffer\n");
    p.editor.behaviour = "refuse";
    const err = await p.ws
      .apply(
        { tool: "t", ops: [{ kind: "write", path: "open.ts", text: "new\n" }, { kind: "write", path: "closed.ts", text: "new\n" }] },
        { sessionId: S },
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkspaceError);
    expect((err as Error).message).toBe("The editor did not apply the change (the user rejected the edit). Nothing was changed.");
    expect(p.editor.textOf(p.at("open.ts"))).toBe("buffer\n");
    expect(readFileSync(p.at("open.ts"), "utf8")).toBe("disk\n");
    expect(readFileSync(p.at("closed.ts"), "utf8")).toBe("closed\n");
    expect(await p.ws.listCheckpoints(S)).toEqual([]);
  });

  it("detects a client that says applied but did not change the buffer, and writes nothing to disk", async () => {
    p = makeProject();
    writeFileSync(p.at("closed.ts"), "closed\n");
    p.editor.open(p.at("open.ts"), "buffer\n");
    p.editor.behaviour = "lie";
    await expect(
      p.ws.apply(
        { tool: "t", ops: [{ kind: "write", path: "open.ts", text: "new\n" }, { kind: "write", path: "closed.ts", text: "new\n" }] },
        { sessionId: S },
      ),
    ).rejects.toThrow(/answered that it applied the change, but open.ts did not change/);
    expect(readFileSync(p.at("closed.ts"), "utf8")).toBe("closed\n");
  });

  it("undoes the buffers whose report shows the change when another one was skipped, and says so", async () => {
    p = makeProject();
    p.editor.open(p.at("x.ts"), "x\n");
    p.editor.open(p.at("y.ts"), "y\n");
    p.editor.open(p.at("z.ts"), "z\n");
    let calls = 0;
    p.editor.behaviour = (changes) => {
      calls += 1;
      if (calls > 1) return "apply";
      // Applies x (reported) and z (not reported yet), skips y, and says it applied all.
      const [x, y, z] = changes as Extract<(typeof changes)[number], { kind: "edit" }>[];
      p.editor.open(x!.uri, x!.newText, 2);
      p.editor.open(z!.uri, z!.newText, 2);
      return { applied: true, reports: { [x!.uri]: "confirmed", [y!.uri]: "skipped", [z!.uri]: "pending" } };
    };
    const ops = ["x", "y", "z"].map((n) => ({ kind: "write" as const, path: `${n}.ts`, text: `${n.toUpperCase()}\n` }));
    await expect(p.ws.apply({ tool: "t", ops }, { sessionId: S })).rejects.toThrow(
      /^The editor answered that it applied the change, but y\.ts did not change .* Nothing was written to disk\. The editor's change to x\.ts was undone\. z\.ts may have the change: the editor has not reported it yet\.$/,
    );
    // Only the reported document was sent back: one undo edit, of x.ts.
    expect(p.editor.applyCalls[1]!.changes.map((c) => (c.kind === "edit" ? c.uri : c.kind))).toEqual([expect.stringMatching(/x\.ts$/)]);
    expect(p.editor.textOf(p.at("x.ts"))).toBe("x\n");
    expect(p.editor.textOf(p.at("y.ts"))).toBe("y\n");
  });

  it("counts an edit the editor has not reported back as applied, with a note, and plans the next from it", async () => {
    p = makeProject();
    p.editor.open(p.at("a.ts"), "one\n", 4);
    p.editor.behaviour = "lazy";
    const first = await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.ts", text: "two\n" }] }, { sessionId: S });
    expect(first.notes.join(" ")).toContain("has not reported a.ts back yet");
    const read = await p.ws.readText("a.ts");
    expect(read).toMatchObject({ text: "two\n", source: "buffer" });
    expect(read.version).toBeUndefined();
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.ts", text: "three\n", base: read }] }, { sessionId: S });
    // The second edit went without a version (the editor's is not known) from the first's result.
    expect(p.editor.applyCalls[1]!.changes).toEqual([expect.objectContaining({ version: null, oldText: "two\n", newText: "three\n" })]);
  });

  it("keeps the checkpoint and says the state is unknown when the editor does not answer", async () => {
    p = makeProject();
    writeFileSync(p.at("closed.ts"), "closed\n");
    p.editor.open(p.at("a.ts"), "one\n");
    p.editor.behaviour = "unanswered";
    await expect(
      p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.ts", text: "two\n" }, { kind: "write", path: "closed.ts", text: "x\n" }] }, { sessionId: S }),
    ).rejects.toThrow(/^The editor did not answer the change to a\.ts \(No answer within 30 s\.\)\. Whether it changed is not known yet; .* Nothing else was written\. If it lands, checkpoint \S+ has the earlier content \(\/undo\)\.$/);
    expect(readFileSync(p.at("closed.ts"), "utf8")).toBe("closed\n");
    expect(await p.ws.listCheckpoints(S)).toHaveLength(1);
  });

  it("deletes an open document through a file operation when the client supports them", async () => {
    p = makeProject({ resourceOperations: true });
    writeFileSync(p.at("d.ts"), "d\n");
    p.editor.open(p.at("d.ts"), "d\n");
    await p.ws.apply({ tool: "t", ops: [{ kind: "delete", path: "d.ts" }] }, { sessionId: S });
    expect(p.editor.applyCalls[0]!.changes).toEqual([{ kind: "delete", uri: expect.stringContaining("d.ts") }]);
    expect(existsSync(p.at("d.ts"))).toBe(false);
  });

  it("deletes an open document on disk, with a note, when the client has no file operations", async () => {
    p = makeProject();
    writeFileSync(p.at("d.ts"), "d\n");
    p.editor.open(p.at("d.ts"), "d\n");
    const r = await p.ws.apply({ tool: "t", ops: [{ kind: "delete", path: "d.ts" }] }, { sessionId: S });
    expect(existsSync(p.at("d.ts"))).toBe(false);
    expect(r.notes.join(" ")).toContain("still open in the editor");
  });

  it("renames an open document through the editor when it supports file operations", async () => {
    p = makeProject({ resourceOperations: true });
    writeFileSync(p.at("a.ts"), "a\n");
    p.editor.open(p.at("a.ts"), "a\n");
    await p.ws.apply({ tool: "t", ops: [{ kind: "move", from: "a.ts", to: "b.ts", text: "b\n" }] }, { sessionId: S });
    expect(p.editor.applyCalls[0]!.changes.map((c) => c.kind)).toEqual(["rename", "edit"]);
    expect(p.editor.textOf(p.at("b.ts"))).toBe("b\n");
    expect(existsSync(p.at("a.ts"))).toBe(false);
  });
});

describe("Workspace.apply path checks", () => {
  it("refuses an external write by default, with a clear message", async () => {
    p = makeProject();
    const outside = mkdtempSync(path.join(tmpdir(), "agent-lsp-out-"));
    try {
      await expect(
        p.ws.apply({ tool: "t", ops: [{ kind: "write", path: path.join(outside, "x.txt"), text: "x" }] }, { sessionId: S }),
      ).rejects.toThrow(/is outside the project root .*writing outside the project is not allowed/);
      await expect(p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "../x.txt", text: "x" }] }, { sessionId: S })).rejects.toThrow(
        /outside the project root/,
      );
      expect(existsSync(path.join(outside, "x.txt"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("asks the gate about an external write when external writes are allowed", async () => {
    p = makeProject({ allowExternalWrites: true });
    const outside = mkdtempSync(path.join(tmpdir(), "agent-lsp-out-"));
    try {
      const target = path.join(outside, "x.txt");
      await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: target, text: "x" }] }, { sessionId: S, authorize: p.authorize });
      expect(p.asked[0]).toEqual({ kind: "external_path", path: target, access: "write" });
      expect(p.asked[1]).toMatchObject({ kind: "file_change", external: true });
      expect(readFileSync(target, "utf8")).toBe("x");
      p.answer = (a) => (a.kind === "external_path" ? { allowed: false, reason: "not there" } : { allowed: true });
      await expect(
        p.ws.apply({ tool: "t", ops: [{ kind: "write", path: target, text: "y" }] }, { sessionId: S, authorize: p.authorize }),
      ).rejects.toThrow(`Writing ${target} was not allowed: not there`);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("never writes through a symlink that leads out of the root, even when external writes are allowed", async () => {
    p = makeProject({ allowExternalWrites: true });
    const outside = mkdtempSync(path.join(tmpdir(), "agent-lsp-out-"));
    try {
      writeFileSync(path.join(outside, "secret.txt"), "keep\n");
      symlinkSync(outside, p.at("link"));
      symlinkSync(path.join(outside, "secret.txt"), p.at("file-link.txt"));
      for (const target of ["link/secret.txt", "link/new.txt", "file-link.txt"]) {
        await expect(p.ws.apply({ tool: "t", ops: [{ kind: "write", path: target, text: "x" }] }, { sessionId: S })).rejects.toThrow(
          /symbolic link .* outside the project/,
        );
      }
      expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("keep\n");
      expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("writes through a symlink inside the root to its target, keeping the link", async () => {
    p = makeProject();
    writeFileSync(p.at("real.txt"), "a\n");
    symlinkSync(p.at("real.txt"), p.at("alias.txt"));
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "alias.txt", text: "b\n" }] }, { sessionId: S });
    expect(readFileSync(p.at("real.txt"), "utf8")).toBe("b\n");
    expect(readFileSync(p.at("alias.txt"), "utf8")).toBe("b\n");
  });

  it("refuses writes into its own checkpoint folder and two changes to one file", async () => {
    p = makeProject();
    mkdirSync(p.at(".agent-lsp/checkpoints"), { recursive: true });
    await expect(
      p.ws.apply({ tool: "t", ops: [{ kind: "write", path: ".agent-lsp/checkpoints/x", text: "x" }] }, { sessionId: S }),
    ).rejects.toThrow(/agent-lsp's own state folder/);
    await expect(
      p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a", text: "1" }, { kind: "write", path: "./a", text: "2" }] }, { sessionId: S }),
    ).rejects.toThrow(/changed twice/);
  });
});

describe("stale reads", () => {
  it("refuses to change a file that changed on disk since the session read it", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "v1\n");
    p.ws.markRead(S, await p.ws.readText("a.txt"));
    writeFileSync(p.at("a.txt"), "v2 from the user\n");
    await expect(p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "mine\n" }] }, { sessionId: S })).rejects.toThrow(
      "a.txt changed on disk since you last read it; read it again before changing it.",
    );
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("v2 from the user\n");
    // Another session has its own picture; reading again clears it for this one.
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "other\n" }] }, { sessionId: "s2" });
    p.ws.markRead(S, await p.ws.readText("a.txt"));
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "mine\n" }] }, { sessionId: S });
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("mine\n");
  });

  it("refuses a text computed from a read the file no longer matches, even in a session that never read it", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "v1\n");
    const base = await p.ws.readText("a.txt");
    // Another session's change lands while this one is still computing from its read.
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "other\n" }] }, { sessionId: "s2" });
    await expect(p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "v1 edited\n", base }] }, { sessionId: S })).rejects.toThrow(
      "a.txt changed on disk while this change was being made from it; nothing was changed. Read it again and redo the change.",
    );
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("other\n");
    // A move built on the old read is refused the same way.
    const moveBase = await p.ws.readText("a.txt");
    writeFileSync(p.at("a.txt"), "typed meanwhile\n");
    await expect(
      p.ws.apply({ tool: "t", ops: [{ kind: "move", from: "a.txt", to: "b.txt", text: "other\n", base: moveBase }] }, { sessionId: S }),
    ).rejects.toThrow(/a.txt changed on disk while this change was being made/);
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("typed meanwhile\n");
    expect(existsSync(p.at("b.txt"))).toBe(false);
  });

  it("refuses a text computed from an older version of an open buffer, and accepts a rewrite of the same text", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "v1\n");
    const touched = await p.ws.readText("a.txt");
    utimesSync(p.at("a.txt"), new Date(2000, 1, 1), new Date(2000, 1, 1));
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "v2\n", base: touched }] }, { sessionId: S });
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("v2\n");
    p.editor.open(p.at("a.txt"), "v2\n", 1);
    const base = await p.ws.readText("a.txt");
    p.editor.open(p.at("a.txt"), "v2 and the user's typing\n", 2);
    await expect(p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "v3\n", base }] }, { sessionId: S })).rejects.toThrow(
      /a.txt changed in the editor while this change was being made/,
    );
    expect(p.editor.textOf(p.at("a.txt"))).toBe("v2 and the user's typing\n");
  });

  it("does not count a touch without a change, nor the session's own writes", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "v1\n");
    p.ws.markRead(S, await p.ws.readText("a.txt"));
    writeFileSync(p.at("a.txt"), "v1\n");
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "v2\n" }] }, { sessionId: S });
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "v3\n" }] }, { sessionId: S });
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("v3\n");
  });

  it("remembers its own write of a BOM file by content, so a later touch is not a change", async () => {
    p = makeProject();
    writeFileSync(p.at("b.txt"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("v1\n")]));
    p.ws.markRead(S, await p.ws.readText("b.txt"));
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "b.txt", text: "v2\n" }] }, { sessionId: S });
    utimesSync(p.at("b.txt"), new Date(2000, 1, 1), new Date(2000, 1, 1));
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "b.txt", text: "v3\n" }] }, { sessionId: S });
    expect(readFileSync(p.at("b.txt")).subarray(3).toString()).toBe("v3\n");
  });

  it("requires a read before overwriting an existing file when asked to (write_file)", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "v1\n");
    const opts = { sessionId: S, requireReadForOverwrite: true };
    await expect(p.ws.apply({ tool: "write_file", ops: [{ kind: "write", path: "a.txt", text: "x" }] }, opts)).rejects.toThrow(
      /already exists and you have not read it/,
    );
    await p.ws.apply({ tool: "write_file", ops: [{ kind: "write", path: "fresh.txt", text: "x" }] }, opts);
    expect(readFileSync(p.at("fresh.txt"), "utf8")).toBe("x");
  });
});
