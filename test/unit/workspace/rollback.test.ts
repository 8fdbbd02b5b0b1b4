/**
 * A disk failure in the middle of a commit (after some files were already renamed into place)
 * must put every file back. The failure is injected by making the second rename throw.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

const fault = vi.hoisted(() => ({ renameCalls: 0, failAt: -1, failRollbackCopy: false }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      fault.renameCalls += 1;
      if (fault.renameCalls === fault.failAt) throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
      return real.rename(from, to);
    },
    // Only the rollback copies a checkpoint's file to a temp name; checkpoints copy elsewhere.
    copyFile: async (from: string, to: string) => {
      if (fault.failRollbackCopy && to.includes("agent-lsp-tmp")) throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
      return real.copyFile(from, to);
    },
  };
});

const { makeProject } = await import("./setup.js");
let p: ReturnType<typeof makeProject>;
afterEach(() => p?.dispose());

describe("a disk failure after the commit point", () => {
  it("restores the files already replaced, removes temps and new folders, keeps no checkpoint", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a0\n");
    writeFileSync(p.at("b.txt"), "b0\n");
    fault.renameCalls = 0;
    fault.failAt = 3;
    await expect(
      p.ws.apply(
        {
          tool: "t",
          ops: [
            { kind: "write", path: "a.txt", text: "a1\n" },
            { kind: "write", path: "sub/c.txt", text: "c\n" },
            { kind: "write", path: "b.txt", text: "b1\n" },
          ],
        },
        { sessionId: "s" },
      ),
    ).rejects.toThrow(/Writing b.txt failed .*Every file was left as it was/);
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a0\n");
    expect(readFileSync(p.at("b.txt"), "utf8")).toBe("b0\n");
    expect(existsSync(p.at("sub"))).toBe(false);
    expect(readdirSync(p.root).filter((n) => n.includes("agent-lsp-tmp"))).toEqual([]);
    expect(await p.ws.listCheckpoints("s")).toEqual([]);
    fault.failAt = -1;
  });

  it("says which files it could not put back, and keeps their checkpoint so /undo can", async () => {
    p = makeProject();
    writeFileSync(p.at("a.txt"), "a0\n");
    writeFileSync(p.at("b.txt"), "b0\n");
    fault.renameCalls = 0;
    fault.failAt = 2;
    fault.failRollbackCopy = true;
    const ops = [
      { kind: "write" as const, path: "a.txt", text: "a1\n" },
      { kind: "write" as const, path: "b.txt", text: "b1\n" },
    ];
    await expect(p.ws.apply({ tool: "t", ops }, { sessionId: "s" })).rejects.toThrow(
      /^Writing b.txt failed \(.*\), and a.txt could not be put back as it was\. Their earlier content is in checkpoint \S+: the user can \/undo to bring it back\.$/,
    );
    fault.failAt = -1;
    fault.failRollbackCopy = false;
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a1\n");
    expect(readFileSync(p.at("b.txt"), "utf8")).toBe("b0\n");
    expect(await p.ws.listCheckpoints("s")).toHaveLength(1);
    await p.ws.undo("s");
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a0\n");
    expect(readFileSync(p.at("b.txt"), "utf8")).toBe("b0\n");
  });

  it("says so when the editor does not take its buffers back after the disk part fails", async () => {
    p = makeProject();
    writeFileSync(p.at("closed.txt"), "c0\n");
    p.editor.open(p.at("open.ts"), "o0\n");
    let calls = 0;
    p.editor.behaviour = () => (++calls === 1 ? "apply" : { applied: false, reason: "busy" });
    fault.renameCalls = 0;
    fault.failAt = 1;
    await expect(
      p.ws.apply(
        { tool: "t", ops: [{ kind: "write", path: "open.ts", text: "o1\n" }, { kind: "write", path: "closed.txt", text: "c1\n" }] },
        { sessionId: "s" },
      ),
    ).rejects.toThrow(/Every file was left as it was\. But the editor's change to open\.ts could not be undone \(use undo in the editor\)\.$/);
    fault.failAt = -1;
    expect(p.editor.textOf(p.at("open.ts"))).toBe("o1\n");
    expect(readFileSync(p.at("closed.txt"), "utf8")).toBe("c0\n");
  });

  it("puts the editor's buffers back when the disk part fails", async () => {
    p = makeProject();
    writeFileSync(p.at("closed.txt"), "c0\n");
    p.editor.open(p.at("open.ts"), "o0\n");
    fault.renameCalls = 0;
    fault.failAt = 1;
    await expect(
      p.ws.apply(
        { tool: "t", ops: [{ kind: "write", path: "open.ts", text: "o1\n" }, { kind: "write", path: "closed.txt", text: "c1\n" }] },
        { sessionId: "s" },
      ),
    ).rejects.toThrow(/Every file was left as it was\. The editor's change to open\.ts was undone\.$/);
    expect(p.editor.textOf(p.at("open.ts"))).toBe("o0\n");
    expect(readFileSync(p.at("closed.txt"), "utf8")).toBe("c0\n");
    fault.failAt = -1;
  });
});
