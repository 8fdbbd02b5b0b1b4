/**
 * computer: screenshots, mouse and keyboard of the user's real screen (Linux X11), with the
 * actions of Anthropic's computer toolset. Off unless `[tools] computer = true`. Looking actions
 * run in every mode; input actions are gated once per model message as one batch
 * (GateMetadata.batchInput, agent/turn/batch-gate.ts). nut-js and sharp load on the first call.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { COMPUTER_ACTIONS, describeAction, isInputAction, type ComputerInput } from "../../computer/actions.js";
import { displayProblem } from "../../computer/display.js";
import { COMPUTER_SERVICE, type ComputerService } from "../../computer/service.js";
import type { GateMetadata } from "../../policy/types.js";
import { defineTool, ToolError } from "../define-tool.js";

const point = z.tuple([z.number(), z.number()]);

const step = z.object({
  action: z.enum(COMPUTER_ACTIONS).describe("What to do. screenshot, zoom, cursor_position and wait only look; the others drive the mouse or keyboard."),
  coordinate: point.optional().describe("[x, y] in pixels of the last screenshot: where to click, move, scroll, or the end of a drag."),
  start_coordinate: point.optional().describe("[x, y] where left_click_drag starts."),
  text: z.string().optional().describe("type: the text. key: a key or combination such as \"ctrl+s\", \"Return\", \"alt+Tab\". hold_key: the key. Clicks and scroll: modifier keys to hold (\"shift\")."),
  scroll_direction: z.enum(["up", "down", "left", "right"]).optional(),
  scroll_amount: z.number().int().min(1).max(50).optional().describe("Wheel clicks to scroll (default 3)."),
  duration: z.number().min(0).max(30).optional().describe("Seconds, for wait and hold_key."),
  region: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional().describe("zoom: [left, top, right, bottom] in screenshot pixels."),
  repeat: z.number().int().min(1).max(100).optional().describe("key: how many times to press it."),
  units: z.enum(["pixels", "per_mille"]).optional().describe("Coordinates are screenshot pixels (default), or per_mille: out of 1000 across the screen."),
});

/** A provider's safety warning about a call (OpenAI's pending safety checks), shown to the gate. */
const safetyCheck = z.object({ id: z.string(), code: z.string().nullish(), message: z.string().nullish() });

const input = lazySchema(() =>
  step.partial({ action: true }).extend({
    steps: z.array(step).min(1).max(30).optional().describe("Several actions to run in order instead of one; stops at the first that fails, then takes a screenshot."),
    safety_checks: z.array(safetyCheck).optional().describe("Set by provider-native rewrites: the provider's warnings about this call."),
  }).refine((a) => (a.action === undefined) !== (a.steps === undefined), { message: "give either action or steps" }),
);

type Input = Partial<ComputerInput> & { steps?: Partial<ComputerInput>[]; safety_checks?: { message?: string | null; code?: string | null }[] };

const metadata: GateMetadata = {
  batchInput: (value) => {
    const a = value as Input | undefined;
    if (!a) return undefined;
    const inputs = (a.steps ?? [a]).filter((s) => typeof s?.action === "string" && isInputAction(s.action));
    if (!inputs.length) return undefined;
    const checks = (a.safety_checks ?? []).map((c) => `provider safety check: ${c.message ?? c.code ?? "unspecified"}`);
    return [`computer ${inputs.map(describeAction).join("; ")}`, ...checks].join(" — ");
  },
};

/** The computer tool. */
export const computerTool = defineTool({
  name: "computer",
  description:
    "Look at and drive the user's real screen: take a screenshot (fitted to at most 1568 px), zoom into a region, read the pointer position, " +
    "click, drag, move, scroll, type text and press keys. Coordinates are pixels of the last screenshot. Take a screenshot first and after actions " +
    "to see what happened. Input actions need the user's approval, once per message for all of them; if the user moves the mouse, input stops " +
    "until their next message.",
  input,
  policyClass: "gui_control",
  category: "computer",
  help: {
    whenToUse: "Only for what has no better tool: a desktop application's window. Files, commands and web pages have their own tools.",
    examples: ['{"action": "screenshot"}', '{"action": "left_click", "coordinate": [640, 400]}', '{"steps": [{"action": "type", "text": "hello"}, {"action": "key", "text": "Return"}]}'],
    failureModes: ["Input actions need the user's approval; a No refuses every input action of the message.", "The user moved the mouse: input stops until their next message; screenshots still work."],
  },
  metadata: metadata as Record<string, unknown>,
  title: (a) => `Computer: ${(a.steps ?? [a]).map((s) => describeAction(s as ComputerInput)).join("; ")}`,
  async execute(args, ctx) {
    const problem = displayProblem();
    if (problem) throw new ToolError(problem);
    const service = ctx.services[COMPUTER_SERVICE] as ComputerService | undefined;
    if (!service) throw new Error("The computer tool is not set up in this runtime.");
    const [{ runComputerAction, runComputerSteps }, { nutDesktop }, { probeDisplay }] = await Promise.all([
      import("../../computer/run-action.js"),
      import("../../computer/desktop.js"),
      import("../../computer/probe.js"),
    ]);
    if (!service.desktop) {
      const unreachable = await probeDisplay(process.env.DISPLAY!);
      if (unreachable) throw new ToolError(`The computer tool cannot work: ${unreachable}`);
    }
    const desktop = await (service.desktop ?? nutDesktop)();
    const batch = ctx.batch ?? { id: ctx.toolCallId, userMessages: 0 };
    const state = service.states.of(ctx.sessionId, batch.userMessages);
    const env = { desktop, state, batchId: batch.id, settleMs: service.settleMs, signal: ctx.signal };
    return args.steps ? runComputerSteps(args.steps as ComputerInput[], env) : runComputerAction(args as ComputerInput, env);
  },
});
