import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTempFiles, TEMP_NAME, tempPathFor } from "../../../server/src/workspace/journal.js";
import { makeProject, type Project } from "./setup.js";

let p: Project;
afterEach(() => p?.dispose());

/** A pid that is certainly not running. */
const DEAD_PID = 2 ** 22 + 12345;

describe("crash clean-up", () => {
  it("names temp files recognisably", () => {
    expect(path.basename(tempPathFor("/x/file.ts"))).toMatch(TEMP_NAME);
    expect(path.basename(tempPathFor("/x/file.ts"))).toMatch(/^\.file\.ts\.agent-lsp-tmp-\d+-\d+$/);
  });

  it("removes temp files a dead process listed in the journal, and the entry", async () => {
    p = makeProject();
    const temp = p.at(`src/.big.txt.agent-lsp-tmp-${DEAD_PID}-1`);
    mkdirSync(p.at("src"));
    writeFileSync(temp, "half written");
    writeFileSync(p.at("src/keep.txt"), "keep");
    mkdirSync(p.at(".agent-lsp/journal"), { recursive: true });
    const entry = p.at(`.agent-lsp/journal/${DEAD_PID}-1-1.json`);
    writeFileSync(entry, JSON.stringify({ pid: DEAD_PID, temps: [temp, p.at("src/keep.txt")] }));
    expect(await cleanupTempFiles(p.root)).toEqual([temp]);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(p.at("src/keep.txt"))).toBe(true);
    expect(existsSync(entry)).toBe(false);
  });

  it("leaves the entries of a live process alone, and runs on the Workspace's first use", async () => {
    p = makeProject();
    mkdirSync(p.at(".agent-lsp/journal"), { recursive: true });
    const liveTemp = p.at(`.a.agent-lsp-tmp-${process.ppid}-1`);
    writeFileSync(liveTemp, "in flight");
    writeFileSync(p.at(`.agent-lsp/journal/${process.ppid}-1-1.json`), JSON.stringify({ pid: process.ppid, temps: [liveTemp] }));
    const deadTemp = p.at(`.b.agent-lsp-tmp-${DEAD_PID}-1`);
    writeFileSync(deadTemp, "left over");
    writeFileSync(p.at(`.agent-lsp/journal/${DEAD_PID}-1-1.json`), JSON.stringify({ pid: DEAD_PID, temps: [deadTemp] }));
    await p.ws.resolve("anything");
    expect(existsSync(deadTemp)).toBe(false);
    expect(existsSync(liveTemp)).toBe(true);
  });

  it("leaves a live process's entry alone while it is still being written (torn JSON)", async () => {
    p = makeProject();
    mkdirSync(p.at(".agent-lsp/journal"), { recursive: true });
    const live = p.at(`.agent-lsp/journal/${process.ppid}-1-1.json`);
    writeFileSync(live, '{"pid": ');
    const dead = p.at(`.agent-lsp/journal/${DEAD_PID}-1-1.json`);
    writeFileSync(dead, '{"pid": ');
    await cleanupTempFiles(p.root);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(dead)).toBe(false);
  });

  it("clears its own journal entry after a commit", async () => {
    p = makeProject();
    await p.ws.apply({ tool: "t", ops: [{ kind: "write", path: "a.txt", text: "a" }] }, { sessionId: "s" });
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(p.at(".agent-lsp/journal")).filter((n) => n.endsWith(".json"))).toEqual([]);
  });
});
