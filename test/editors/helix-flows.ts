/**
 * What the Helix suites share: the project every case starts from (math.js with a lint warning
 * on line 2), the agent's fix of it, and a fixture that starts the fake provider and Helix for a
 * case and stops both after it.
 */
import { existsSync } from "node:fs";
import { afterEach, beforeAll } from "vitest";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { HelixSession, type HelixEditor, type HelixOptions } from "./helix-harness.js";
import { SERVER_BUNDLE } from "./nvim-harness.js";

/** A Helix case's timeout: Helix, two servers and a turn on a loaded machine. */
export const TIMEOUT = 120_000;
export const MATH_JS = "function add(a, b) {\n  return a - b;\n}\n";
/** The fix action over the lint server's warning on line 2. */
export const FIX_TITLE = "Ask agent to fix: lint: add() subtracts";
/** The model's fix: one edit of math.js. */
export const FIX_EDIT = { toolCalls: [{ name: "edit_file", input: { path: "math.js", target_content: "a - b", replacement_content: "a + b" } }] };
/** An approval block's heading in the chat file, with its random id. */
export const APPROVAL_BLOCK = /### Approval needed \(#([0-9a-f]{8})\)/;

/** Starts a case's Helix; everything it started stops after the case. */
export type StartHelix = (editor: HelixEditor, options?: Partial<HelixOptions>) => Promise<{ hx: HelixSession; fake: FakeProvider }>;

/** Registers the suite's hooks and returns the start of a case: the fake, then Helix on math.js with every server of the language up. */
export function useHelix(): StartHelix {
  let fake: FakeProvider | undefined;
  let hx: HelixSession | undefined;
  beforeAll(() => {
    if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build first`);
  });
  afterEach(async () => {
    await hx?.dispose();
    await fake?.close();
    hx = undefined;
    fake = undefined;
  });
  return async (editor, options = {}) => {
    fake = await startFakeProvider();
    hx = await HelixSession.start({ editor, fake, files: { "math.js": MATH_JS }, open: ["math.js"], ...options });
    for (const server of options.servers ?? ["test-lint", "agent-lsp"]) await hx.waitForServer(server);
    return { hx, fake };
  };
}

/** Puts the cursor on line 2 and selects the line, so the lint warning is under the selection. */
export async function selectWarnedLine(hx: HelixSession): Promise<void> {
  await hx.waitForScreen((s) => /^●\s+2 /m.test(s), { what: "the lint warning in the gutter of line 2" });
  await hx.sendKeys("j", "x");
  await hx.waitForScreen((s) => / 2:\d+ *$/m.test(s), { what: "the cursor on line 2" });
}
