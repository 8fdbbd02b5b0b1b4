/**
 * Runs one computer action on a Desktop: checks that input may go ahead (no earlier failure in
 * this batch, the user has not taken the mouse), scales coordinates from the last screenshot's
 * pixels to the screen's, acts, and answers with text and, for looking actions, an image.
 */
import type { ContentBlock } from "../vocabulary/messages.js";
import { describeSize, fitRaw, fittedSize, toImageBlock } from "../images/fit.js";
import { describeAction, isInputAction, type ComputerInput, type Coordinate } from "./actions.js";
import type { Desktop, MouseButton } from "./desktop.js";
import { parseKeyCombo } from "./keys.js";
import { userMovedMouse, type ComputerSessionState } from "./state.js";

/** What one action answers. */
export interface ActionResult {
  isError: boolean;
  content: ContentBlock[];
}

/** Where an action runs. */
export interface ActionEnv {
  desktop: Desktop;
  state: ComputerSessionState;
  /** The model message this call came in (its calls form one batch). */
  batchId: string;
  /** Pause after an input action, so the screen settles before the next look (0.5 s). */
  settleMs: number;
  signal: AbortSignal;
}

/** Said for every call after a failed one in the same batch. */
const EARLIER_FAILED = "Not executed: an earlier computer action in this turn failed.";
/** Said for input after the user moved the mouse, until the user's next message. */
const USER_MOVED = "Not executed: the user moved the mouse. Input stays stopped until the user's next message; screenshots still work.";

/** The longest wait or key hold, in seconds. */
const MAX_WAIT_S = 30;

/** Runs `input`; never throws (a failure is an error result, and stops the rest of the batch). */
export async function runComputerAction(input: ComputerInput, env: ActionEnv): Promise<ActionResult> {
  const { state } = env;
  if (state.failedBatch === env.batchId) return error(EARLIER_FAILED);
  try {
    const input_ = isInputAction(input.action);
    if (input_) {
      if (state.stoppedAtUserMessages !== undefined) return fail(env, USER_MOVED);
      if (userMovedMouse(state, await env.desktop.cursor())) {
        state.stoppedAtUserMessages = state.userMessages;
        return fail(env, USER_MOVED);
      }
    }
    const result = await act(input, env);
    if (input_) {
      state.expectedCursor = await env.desktop.cursor();
      await sleep(env.settleMs, env.signal);
    }
    return result;
  } catch (err) {
    return fail(env, `${describeAction(input)} failed: ${(err as Error).message}`);
  }
}

/**
 * Several actions in order (one OpenAI computer call), stopping at the first that fails, then a
 * screenshot of the screen after them whatever happened: the model always sees where it is.
 */
export async function runComputerSteps(steps: ComputerInput[], env: ActionEnv): Promise<ActionResult> {
  const lines: string[] = [];
  let failed = false;
  for (const step of steps) {
    const r = await runComputerAction(step, env);
    lines.push(...r.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
    if (r.isError) {
      failed = true;
      break;
    }
  }
  try {
    const shot = await screenshot(env.desktop, await scaleOf(env.desktop), "After them: ");
    return { isError: failed, content: [{ type: "text", text: [...lines, ...textOf(shot)].join("\n") }, ...shot.content.filter((b) => b.type === "image")] };
  } catch (err) {
    return { isError: true, content: [{ type: "text", text: [...lines, `No screenshot could be taken after them: ${(err as Error).message}`].join("\n") }] };
  }
}

function textOf(r: ActionResult): string[] {
  return r.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
}

function fail(env: ActionEnv, text: string): ActionResult {
  env.state.failedBatch = env.batchId;
  return error(text);
}

function error(text: string): ActionResult {
  return { isError: true, content: [{ type: "text", text }] };
}

function ok(text: string, image?: ContentBlock): ActionResult {
  return { isError: false, content: image ? [{ type: "text", text }, image] : [{ type: "text", text }] };
}

/** Scales between the screenshot the model saw and the screen. */
interface Scale {
  screen: { width: number; height: number };
  shot: { width: number; height: number };
}

async function scaleOf(desktop: Desktop): Promise<Scale> {
  const screen = await desktop.size();
  return { screen, shot: fittedSize(screen.width, screen.height) };
}

/** A model coordinate (screenshot pixels, or per mille) as a screen pixel; throws when outside. */
function toScreen(c: Coordinate, scale: Scale, units: ComputerInput["units"]): { x: number; y: number } {
  const [x, y] = c;
  if (units === "per_mille") {
    if (x < 0 || y < 0 || x > 1000 || y > 1000) throw new Error(`(${x}, ${y}) is outside 0..1000`);
    return { x: Math.min(scale.screen.width - 1, Math.round((x / 1000) * scale.screen.width)), y: Math.min(scale.screen.height - 1, Math.round((y / 1000) * scale.screen.height)) };
  }
  if (x < 0 || y < 0 || x >= scale.shot.width || y >= scale.shot.height) {
    throw new Error(`(${x}, ${y}) is outside the screenshot (0..${scale.shot.width - 1}, 0..${scale.shot.height - 1})`);
  }
  return {
    x: Math.min(scale.screen.width - 1, Math.round((x * scale.screen.width) / scale.shot.width)),
    y: Math.min(scale.screen.height - 1, Math.round((y * scale.screen.height) / scale.shot.height)),
  };
}

/** A screen pixel as screenshot pixels. */
function toShot(p: { x: number; y: number }, scale: Scale): Coordinate {
  return [Math.round((p.x * scale.shot.width) / scale.screen.width), Math.round((p.y * scale.shot.height) / scale.screen.height)];
}

async function act(input: ComputerInput, env: ActionEnv): Promise<ActionResult> {
  const { desktop } = env;
  const scale = await scaleOf(desktop);
  const at = async (c: Coordinate | undefined) => {
    if (c) {
      const p = toScreen(c, scale, input.units);
      await desktop.move(p.x, p.y);
    }
  };
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is required for ${input.action}`);
    return value;
  };
  switch (input.action) {
    case "screenshot":
      return screenshot(desktop, scale);
    case "zoom":
      return zoom(desktop, scale, need(input.region, "region [x1, y1, x2, y2]"), input.units);
    case "cursor_position": {
      const [x, y] = toShot(await desktop.cursor(), scale);
      return ok(`The pointer is at (${x}, ${y}) in screenshot pixels.`);
    }
    case "wait": {
      await sleep(Math.min(need(input.duration, "duration"), MAX_WAIT_S) * 1000, env.signal);
      return screenshot(desktop, scale, `Waited ${Math.min(input.duration!, MAX_WAIT_S)} s. `);
    }
    case "left_click":
    case "right_click":
    case "middle_click":
    case "double_click":
    case "triple_click": {
      await at(input.coordinate);
      const button: MouseButton = input.action === "right_click" ? "right" : input.action === "middle_click" ? "middle" : "left";
      const count = input.action === "double_click" ? 2 : input.action === "triple_click" ? 3 : 1;
      await withKeysHeld(desktop, input.text, () => desktop.click(button, count));
      return ok(`Done: ${describeAction(input)}.`);
    }
    case "left_click_drag": {
      await at(need(input.start_coordinate, "start_coordinate"));
      await desktop.press("left");
      await at(need(input.coordinate, "coordinate"));
      await desktop.release("left");
      return ok(`Done: ${describeAction(input)}.`);
    }
    case "mouse_move":
      await at(need(input.coordinate, "coordinate"));
      return ok(`Done: ${describeAction(input)}.`);
    case "left_mouse_down":
      await desktop.press("left");
      return ok("Done: left button held down.");
    case "left_mouse_up":
      await desktop.release("left");
      return ok("Done: left button released.");
    case "scroll": {
      await at(input.coordinate);
      const direction = need(input.scroll_direction, "scroll_direction");
      await withKeysHeld(desktop, input.text, () => desktop.scroll(direction, input.scroll_amount ?? 3));
      return ok(`Done: ${describeAction(input)}.`);
    }
    case "type":
      await desktop.type(need(input.text, "text"));
      return ok(`Typed ${need(input.text, "text").length} characters.`);
    case "key": {
      const keys = parseKeyCombo(need(input.text, "text"));
      for (let i = 0; i < Math.min(input.repeat ?? 1, 100); i++) await desktop.keys(keys);
      return ok(`Done: ${describeAction(input)}.`);
    }
    case "hold_key": {
      const keys = parseKeyCombo(need(input.text, "text"));
      await desktop.keyDown(keys);
      try {
        await sleep(Math.min(need(input.duration, "duration"), MAX_WAIT_S) * 1000, env.signal);
      } finally {
        await desktop.keyUp(keys);
      }
      return ok(`Done: ${describeAction(input)}.`);
    }
  }
}

async function screenshot(desktop: Desktop, scale: Scale, prefix = ""): Promise<ActionResult> {
  const fitted = await fitRaw(await desktop.grab());
  return ok(`${prefix}Screenshot ${describeSize(fitted)}. Coordinates are pixels of this screenshot.`, toImageBlock(fitted));
}

async function zoom(desktop: Desktop, scale: Scale, region: [number, number, number, number], units: ComputerInput["units"]): Promise<ActionResult> {
  const [x1, y1, x2, y2] = region;
  if (x2 <= x1 || y2 <= y1) throw new Error(`region [${region.join(", ")}] is empty: give [left, top, right, bottom]`);
  const a = toScreen([x1, y1], scale, units);
  const b = toScreen([Math.min(x2, scale.shot.width - 1), Math.min(y2, scale.shot.height - 1)], scale, units);
  const fitted = await fitRaw(await desktop.grab({ x: a.x, y: a.y, width: Math.max(1, b.x - a.x), height: Math.max(1, b.y - a.y) }));
  return ok(`Zoom of [${region.join(", ")}]: ${describeSize(fitted)}. Coordinates of other actions stay those of the full screenshot.`, toImageBlock(fitted));
}

/** Runs `fn` with the modifier keys of `combo` ("shift", "ctrl+alt") held down. */
async function withKeysHeld(desktop: Desktop, combo: string | undefined, fn: () => Promise<void>): Promise<void> {
  if (!combo) return fn();
  const keys = parseKeyCombo(combo);
  await desktop.keyDown(keys);
  try {
    await fn();
  } finally {
    await desktop.keyUp(keys);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
