/**
 * Gemini's computer use (`computerUse` tool): the model calls predefined functions (`click_at`,
 * `type_text_at`, `scroll_at` ...) with coordinates out of 1000 across the screen. Each call is
 * rewritten onto our computer tool as steps in per-mille units, followed by a screenshot. `navigate`,
 * `key_down` and `key_up` are left out of what the model is offered; a call carrying Gemini's
 * request for confirmation shows it to the gate; a call Gemini itself blocked does not run. Pure.
 */
import type { NativeRewrite } from "./anthropic.js";

/** The tool as agent-lsp offers it. */
export const GEMINI_COMPUTER = Object.freeze({
  /** Our `NativeToolSpec.kind` (and the `native.kind` of its calls). */
  kind: "gemini_computer",
  /** Our tool it stands in for. */
  name: "computer",
  replaces: Object.freeze(["computer"]),
  /** Predefined functions not offered: no URL bar to navigate, no separate key down/up. */
  excluded: Object.freeze(["navigate", "key_down", "key_up"]),
});

/** The predefined functions Gemini may call. */
export const GEMINI_COMPUTER_FUNCTIONS: ReadonlySet<string> = new Set([
  "open_web_browser",
  "wait_5_seconds",
  "go_back",
  "go_forward",
  "search",
  "navigate",
  "click_at",
  "hover_at",
  "type_text_at",
  "key_combination",
  "scroll_document",
  "scroll_at",
  "drag_and_drop",
  "key_down",
  "key_up",
]);

type Args = Record<string, unknown>;

/** Rewrites one predefined-function call onto our computer tool. */
export function rewriteGeminiComputer(name: string, input: unknown): NativeRewrite {
  const args = (typeof input === "object" && input !== null ? input : {}) as Args;
  const decision = args.safety_decision as { decision?: string; explanation?: string } | undefined;
  if (decision && /block/i.test(String(decision.decision))) {
    return { error: `Not run: Gemini blocked this action${decision.explanation ? ` (${decision.explanation})` : ""}.` };
  }
  const steps = stepsOf(name, args);
  if (typeof steps === "string") return { error: `${name}: ${steps}` };
  const confirm = decision?.decision === "require_confirmation" ? [{ id: "gemini_safety_decision", message: decision.explanation ?? "Gemini asks for confirmation" }] : [];
  return { name: GEMINI_COMPUTER.name, input: { steps, ...(confirm.length ? { safety_checks: confirm } : {}) } };
}

function stepsOf(name: string, a: Args): Args[] | string {
  const at = (x: unknown, y: unknown) => ({ coordinate: [Number(x), Number(y)], units: "per_mille" });
  switch (name) {
    case "click_at":
      return [{ action: "left_click", ...at(a.x, a.y) }];
    case "hover_at":
      return [{ action: "mouse_move", ...at(a.x, a.y) }];
    case "type_text_at": {
      const steps: Args[] = [{ action: "left_click", ...at(a.x, a.y) }];
      // Gemini's defaults: the field is cleared first and Enter pressed after.
      if (a.clear_before_typing !== false) steps.push({ action: "key", text: "ctrl+a" }, { action: "key", text: "BackSpace" });
      steps.push({ action: "type", text: String(a.text ?? "") });
      if (a.press_enter !== false) steps.push({ action: "key", text: "Return" });
      return steps;
    }
    case "key_combination":
      return [{ action: "key", text: String(a.keys ?? "") }];
    case "scroll_document":
      return [{ action: "scroll", scroll_direction: String(a.direction ?? "down"), scroll_amount: 5 }];
    case "scroll_at":
      return [{ action: "scroll", ...at(a.x, a.y), scroll_direction: String(a.direction ?? "down"), scroll_amount: Math.max(1, Math.min(50, Math.round(Number(a.magnitude ?? 800) / 100))) }];
    case "drag_and_drop":
      return [{ action: "left_click_drag", start_coordinate: [Number(a.x), Number(a.y)], coordinate: [Number(a.destination_x), Number(a.destination_y)], units: "per_mille" }];
    case "wait_5_seconds":
      return [{ action: "wait", duration: 5 }];
    case "go_back":
      return [{ action: "key", text: "alt+Left" }];
    case "go_forward":
      return [{ action: "key", text: "alt+Right" }];
    case "open_web_browser":
      // The desktop is already there: show it.
      return [{ action: "screenshot" }];
    default:
      return "not available on the desktop (there is no address bar to drive); use clicks and keys";
  }
}
