/**
 * The batch gate of the computer tool: one decision for all the input actions of one model
 * message, by mode; the safety check sees the batch and the last screenshot; a headless run
 * refuses unless --allow-untrusted-tools.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../server/src/config/schema.js";
import { HeadlessEditor } from "../../../server/src/editor/headless.js";
import { SessionEvents } from "../../../server/src/editor/session-events.js";
import { PolicyGate } from "../../../server/src/policy/gate.js";
import type { BatchCall } from "../../../server/src/policy/types.js";
import { computerTool } from "../../../server/src/tools/outside/computer.js";
import type { ImageBlock } from "../../../server/src/vocabulary/messages.js";
import { gateFixture, never } from "./setup.js";

const SHOT: ImageBlock = { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" };

function batch(...descriptions: string[]): BatchCall[] {
  return descriptions.map((description, i) => ({ id: `c${i}`, name: "computer", title: description, input: {}, description }));
}

describe("checkBatch", () => {
  it("asks once in ask mode, listing the whole batch", async () => {
    const fx = gateFixture();
    fx.editor.answers.push({ optionId: "allow_once" });
    const decision = await fx.gate.checkBatch(fx.session("ask"), computerTool, batch("computer left_click (1, 2)", 'computer type "hi"'), SHOT, never);
    expect(decision.allowed).toBe(true);
    expect(fx.editor.permissions).toHaveLength(1);
    expect(fx.editor.permissions[0]!.summary).toBe('computer: 2 input actions on the desktop: computer left_click (1, 2); computer type "hi"');
  });

  it("refuses in read_only and plan, runs in full_access unasked", async () => {
    const fx = gateFixture();
    for (const mode of ["read_only", "plan"] as const) {
      const d = await fx.gate.checkBatch(fx.session(mode), computerTool, batch("computer left_click (1, 2)"), SHOT, never);
      expect(d.allowed).toBe(false);
    }
    expect(await fx.gate.checkBatch(fx.session("full_access"), computerTool, batch("computer key \"Return\""), SHOT, never)).toEqual({ allowed: true });
    expect(fx.editor.permissions).toHaveLength(0);
  });

  it("gives the safety check the batch and the last screenshot in auto mode", async () => {
    const fx = gateFixture();
    const d = await fx.gate.checkBatch(fx.session("auto"), computerTool, batch("computer left_click (1, 2)", "computer key \"ctrl+s\""), SHOT, never);
    expect(d.allowed).toBe(true);
    expect(fx.classifier.requests).toHaveLength(1);
    expect(fx.classifier.requests[0]!.images).toEqual([SHOT]);
    expect(fx.classifier.requests[0]!.prompt).toContain("1. computer left_click (1, 2)\n2. computer key \"ctrl+s\"");
  });

  it("refuses input in a headless ask run, unless --allow-untrusted-tools", async () => {
    for (const allowUntrusted of [false, true]) {
      const editor = new HeadlessEditor({ quiet: true, interactive: false, allowUntrusted });
      const gate = new PolicyGate({ editor, events: new SessionEvents(), config: () => DEFAULT_CONFIG, home: "/nonexistent-home", env: {} });
      const session = { sessionId: "s", mode: "ask" as const, root: "/tmp", trust: "operator" as const };
      const d = await gate.checkBatch(session, computerTool, batch("computer left_click (1, 2)"), undefined, never);
      expect(d.allowed).toBe(allowUntrusted);
      if (!d.allowed) expect(d.reason).toContain("run with --allow-untrusted-tools");
    }
  });
});

describe("the computer tool's batch input", () => {
  it("counts input actions and lets looking ones run unasked", () => {
    const batchInput = (computerTool.metadata as { batchInput: (i: unknown) => string | undefined }).batchInput;
    expect(batchInput({ action: "screenshot" })).toBeUndefined();
    expect(batchInput({ action: "zoom", region: [0, 0, 1, 1] })).toBeUndefined();
    expect(batchInput({ action: "cursor_position" })).toBeUndefined();
    expect(batchInput({ action: "wait", duration: 1 })).toBeUndefined();
    expect(batchInput({ action: "left_click", coordinate: [3, 4] })).toBe("computer left_click (3, 4)");
    expect(batchInput({ action: "left_click_drag", start_coordinate: [1, 2], coordinate: [3, 4] })).toBe("computer left_click_drag from (1, 2) to (3, 4)");
  });
});
