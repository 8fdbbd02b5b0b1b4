/**
 * OpenAI's `computer` tool (Responses API): a `computer_call` carries several actions (`click`,
 * `double_click`, `drag`, `keypress`, `move`, `screenshot`, `scroll`, `type`, `wait`) and wants a
 * `computer_call_output` with a screenshot of the screen after them. Each call is rewritten onto
 * our computer tool as its `steps`, with the call's pending safety checks shown to the gate. Pure.
 */
import type { NativeRewrite } from "./anthropic.js";

/** The tool as agent-lsp offers it. */
export const OPENAI_COMPUTER = Object.freeze({
  /** Our `NativeToolSpec.kind`. */
  kind: "openai_computer",
  /** Our tool it stands in for. */
  name: "computer",
  /** The tool `type` the Responses API takes. */
  type: "computer",
  replaces: Object.freeze(["computer"]),
});

/** The `native.kind` of a call the model made through it (the output item's type). */
export const COMPUTER_CALL = "computer_call";

type Action = { type?: string; [k: string]: unknown };

/** Rewrites one `computer_call` item onto our computer tool. */
export function rewriteOpenAIComputer(item: unknown): NativeRewrite {
  const call = (typeof item === "object" && item !== null ? item : {}) as { actions?: Action[]; action?: Action; pending_safety_checks?: unknown[] };
  const actions = call.actions ?? (call.action ? [call.action] : []);
  if (!actions.length) return { error: "computer_call: no actions." };
  const steps: Record<string, unknown>[] = [];
  for (const action of actions) {
    const step = toStep(action);
    if (typeof step === "string") return { error: `computer_call: ${step}` };
    steps.push(step);
  }
  const checks = Array.isArray(call.pending_safety_checks) ? call.pending_safety_checks : [];
  return { name: OPENAI_COMPUTER.name, input: { steps, ...(checks.length ? { safety_checks: checks } : {}) } };
}

/** One OpenAI action as our step, or why it cannot be one. */
function toStep(a: Action): Record<string, unknown> | string {
  const at = (x: unknown, y: unknown) => [Number(x), Number(y)];
  switch (a.type) {
    case "click": {
      const action = { left: "left_click", right: "right_click", wheel: "middle_click" }[String(a.button ?? "left")];
      return action ? { action, coordinate: at(a.x, a.y) } : `the ${String(a.button)} mouse button is not supported`;
    }
    case "double_click":
      return { action: "double_click", coordinate: at(a.x, a.y) };
    case "move":
      return { action: "mouse_move", coordinate: at(a.x, a.y) };
    case "drag": {
      const path = Array.isArray(a.path) ? (a.path as { x: number; y: number }[]) : [];
      if (path.length < 2) return "a drag needs a path of at least two points";
      return { action: "left_click_drag", start_coordinate: at(path[0]!.x, path[0]!.y), coordinate: at(path.at(-1)!.x, path.at(-1)!.y) };
    }
    case "keypress": {
      const keys = Array.isArray(a.keys) ? (a.keys as string[]) : [];
      return keys.length ? { action: "key", text: keys.map(keyName).join("+") } : "a keypress needs keys";
    }
    case "type":
      return { action: "type", text: String(a.text ?? "") };
    case "scroll": {
      const dy = Number(a.scroll_y ?? 0);
      const dx = Number(a.scroll_x ?? 0);
      const vertical = Math.abs(dy) >= Math.abs(dx);
      const amount = Math.max(1, Math.round(Math.abs(vertical ? dy : dx) / 100));
      const direction = vertical ? (dy < 0 ? "up" : "down") : dx < 0 ? "left" : "right";
      return { action: "scroll", coordinate: at(a.x, a.y), scroll_direction: direction, scroll_amount: Math.min(amount, 50) };
    }
    case "screenshot":
      return { action: "screenshot" };
    case "wait":
      return { action: "wait", duration: 2 };
    default:
      return `unknown action type ${JSON.stringify(a.type)}`;
  }
}

/** OpenAI's key names ("CTRL", "ARROWLEFT", "ENTER") as ours. */
function keyName(key: string): string {
  const k = key.toLowerCase();
  if (k.startsWith("arrow")) return k.slice("arrow".length);
  return { control: "ctrl", option: "alt", cmd: "cmd", win: "super" }[k] ?? k;
}
