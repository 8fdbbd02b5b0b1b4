import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { checkpointsCommand, restoreCommand, undoCommand } from "../../../server/src/agent/commands/checkpoint-commands.js";
import { makeProject, type Project } from "./setup.js";

let p: Project;
afterEach(() => p?.dispose());

const write = (path: string, text: string) => ({ kind: "write" as const, path, text });

describe("checkpoint commands", () => {
  it("/checkpoints lists newest first with tool and files; /undo and /restore say what they did", async () => {
    p = makeProject();
    const ctx = { sessionId: "s1", workspace: p.ws };
    expect(await checkpointsCommand([], ctx)).toContain("No checkpoints in this session yet");
    expect(await undoCommand([], ctx)).toBe("Nothing to undo in this session.");

    writeFileSync(p.at("a.txt"), "a0\n");
    const first = await p.ws.apply({ tool: "edit_file", ops: [write("a.txt", "a1\n")] }, { sessionId: "s1" });
    await p.ws.apply({ tool: "write_file", ops: [write("b.txt", "b\n"), write("c.txt", "c\n")] }, { sessionId: "s1" });

    const listed = (await checkpointsCommand([], ctx)).split("\n");
    expect(listed[0]).toMatch(/^\S+ {2}.+ {2}write_file {2}b\.txt, c\.txt$/);
    expect(listed[1]).toMatch(new RegExp(`^${first.checkpointId} {2}.+ {2}edit_file {2}a\\.txt$`));
    expect(listed.at(-1)).toContain("/restore <id>");

    const undone = await undoCommand([], ctx);
    expect(undone).toMatch(/^Undid write_file \(checkpoint \S+\): D b\.txt, D c\.txt\. \/restore \S+ redoes it\.$/);
    expect(existsSync(p.at("b.txt"))).toBe(false);
    expect(await checkpointsCommand([], ctx)).toMatch(/write_file {2}b\.txt, c\.txt \(undone\)/);

    const restored = await restoreCommand([first.checkpointId!], ctx);
    expect(restored).toMatch(new RegExp(`^Restored the state before checkpoint ${first.checkpointId} \\(\\d+ change sets reverted\\): M a\\.txt\\. /undo reverts this restore\\.$`));
    expect(readFileSync(p.at("a.txt"), "utf8")).toBe("a0\n");
  });

  it("/restore needs an id that belongs to the session", async () => {
    p = makeProject();
    const r = await p.ws.apply({ tool: "t", ops: [write("x.txt", "x")] }, { sessionId: "other" });
    await expect(restoreCommand([], { sessionId: "s1", workspace: p.ws })).rejects.toThrow("Usage: /restore <checkpoint id>");
    await expect(restoreCommand([r.checkpointId!], { sessionId: "s1", workspace: p.ws })).rejects.toThrow(
      `There is no checkpoint ${r.checkpointId} in this session`,
    );
  });
});
