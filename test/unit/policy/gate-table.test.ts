/**
 * The gate's decisions, table-driven: every safety mode x every policy class x a path inside or
 * outside the project, for a call decided at check; then the actions a running tool authorizes
 * (a file change, an outside path, a command) in every mode. The editor says Yes and the
 * classifier says allow, so each cell shows who decided: nobody (allow), the user (ask), the
 * classifier (classify), or the mode (deny).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SAFETY_MODES, type SafetyMode } from "../../../server/src/config/schema.js";
import type { GateDecision, GatedAction, PolicyClass } from "../../../server/src/vocabulary/policy.js";
import { POLICY_CLASSES } from "../../../server/src/vocabulary/policy.js";
import { callOf, capability, gateFixture, never, type GateFixture } from "./setup.js";

type Outcome = "allow" | "ask" | "classify" | "deny";

async function outcomeOf(fx: GateFixture, run: () => Promise<GateDecision>): Promise<Outcome> {
  const prompts = fx.editor.permissions.length;
  const classified = fx.classifier.requests.length;
  const decision = await run();
  const asked = fx.editor.permissions.length > prompts;
  const classifiedNow = fx.classifier.requests.length > classified;
  if (!decision.allowed) {
    expect(decision.reason.length).toBeGreaterThan(20); // a reason the model can read
    expect(asked || classifiedNow).toBe(false); // the mode refused, nobody was bothered
    return "deny";
  }
  if (asked && classifiedNow) throw new Error("both asked and classified");
  return asked ? "ask" : classifiedNow ? "classify" : "allow";
}

const OUTSIDE = path.join(path.sep, "elsewhere-agent-lsp-test", "notes.txt");

/** What a call of a `cls` tool naming a path inside (or outside) the project gets in `mode`. */
function expectedAtCheck(mode: SafetyMode, cls: PolicyClass, external: boolean): Outcome {
  if (mode === "read_only" || mode === "plan") return cls === "read_only" && !external ? "allow" : "deny";
  if (mode === "full_access") return "allow";
  if (mode === "ask") return cls === "read_only" && !external ? "allow" : "ask";
  // auto: reads and local edits run; commands, network, APIs, GUI and outside paths are classified.
  return !external && (cls === "read_only" || cls === "read_write") ? "allow" : "classify";
}

describe("check: mode x policy class x inside/outside the project", () => {
  const cases = SAFETY_MODES.flatMap((mode) =>
    POLICY_CLASSES.flatMap((cls) => [false, true].map((external) => [mode, cls, external ? "outside" : "inside", expectedAtCheck(mode, cls, external)] as const)),
  );
  it.each(cases)("%s, %s tool, path %s: %s", async (mode, cls, where, expected) => {
    const fx = gateFixture();
    const cap = capability(cls);
    const input = { path: where === "outside" ? OUTSIDE : "src/a.txt" };
    expect(await outcomeOf(fx, () => fx.gate.check(fx.session(mode), callOf(cap, input), cap, never))).toBe(expected);
  });
});

function fileChange(fx: GateFixture, external: boolean): Extract<GatedAction, { kind: "file_change" }> {
  const p = external ? OUTSIDE : "src/a.txt";
  return {
    kind: "file_change",
    summary: `write_file: ${p} (+1 -0)`,
    diff: `--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+hello\n`,
    files: [{ uri: `file://${path.resolve(fx.root, p)}`, path: p, oldText: "", newText: "hello\n" }],
    external,
  };
}

/** What an action found while a tool runs gets in `mode`. */
const AUTHORIZE_TABLE: Record<SafetyMode, Record<string, Outcome>> = {
  read_only: { "change inside": "deny", "change outside": "deny", "read outside": "deny", command: "deny" },
  plan: { "change inside": "deny", "change outside": "deny", "read outside": "deny", command: "deny" },
  ask: { "change inside": "ask", "change outside": "ask", "read outside": "ask", command: "ask" },
  auto: { "change inside": "allow", "change outside": "classify", "read outside": "classify", command: "classify" },
  full_access: { "change inside": "allow", "change outside": "allow", "read outside": "allow", command: "allow" },
};

describe("authorize: the actions a running tool finds, in every mode", () => {
  const cases = Object.entries(AUTHORIZE_TABLE).flatMap(([mode, row]) => Object.entries(row).map(([what, expected]) => [mode as SafetyMode, what, expected] as const));
  it.each(cases)("%s, %s: %s", async (mode, what, expected) => {
    const fx = gateFixture();
    const cap = capability(what === "command" ? "exec" : what === "read outside" ? "read_only" : "read_write", {
      metadata: { authorizesChanges: true, authorizesCommands: true },
    });
    const action: GatedAction =
      what === "command"
        ? { kind: "command", command: "npm test", cwd: fx.root }
        : what === "read outside"
          ? { kind: "external_path", path: OUTSIDE, access: "read" }
          : fileChange(fx, what === "change outside");
    const session = fx.session(mode);
    const call = callOf(cap, {});
    // The tool passed check first (in the read-only modes check already refuses it).
    const started = await fx.gate.check(session, call, cap, never);
    if (mode === "read_only" || mode === "plan") expect(started.allowed).toBe(what === "read outside");
    expect(await outcomeOf(fx, () => fx.gate.authorize(session, call, cap, action, never))).toBe(expected);
  });
});

describe("trust", () => {
  it.each(POLICY_CLASSES.filter((c) => c !== "read_only"))("a guest may not use a %s tool, even in full access", async (cls) => {
    const fx = gateFixture();
    const cap = capability(cls);
    for (const trust of ["guest", null] as const) {
      const decision = await fx.gate.check(fx.session("full_access", trust), callOf(cap, {}), cap, never);
      expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("guest trust") });
    }
  });

  it("offers operators every class and guests (or a missing trust) read_only only", () => {
    const fx = gateFixture();
    expect(fx.gate.filter(fx.session("ask")).policy?.allow).toEqual(POLICY_CLASSES);
    expect(fx.gate.filter(fx.session("ask", "guest")).policy?.allow).toEqual(["read_only"]);
    expect(fx.gate.filter(fx.session("ask", null)).policy?.allow).toEqual(["read_only"]);
  });

  it("a guest's running tool may not change files or run commands", async () => {
    const fx = gateFixture();
    const cap = capability("read_only");
    const session = fx.session("full_access", null);
    expect((await fx.gate.authorize(session, callOf(cap), cap, fileChange(fx, false), never)).allowed).toBe(false);
    expect((await fx.gate.authorize(session, callOf(cap), cap, { kind: "command", command: "ls", cwd: fx.root }, never)).allowed).toBe(false);
  });
});
