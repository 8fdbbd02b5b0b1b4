/**
 * The computer tool's actions, as Anthropic's computer toolset names them. Which ones only look
 * (run in every mode, never gated) and which drive the mouse or keyboard (gated once per model
 * message as one batch). Pure.
 */
import { COMPUTER_ACTIONS, type ComputerActionName } from "../vocabulary/computer.js";

export { COMPUTER_ACTIONS };

/** One action. */
export type ComputerAction = ComputerActionName;

/** Actions that only look at the screen (or wait): they run in every safety mode. */
const OBSERVING_ACTIONS: ReadonlySet<ComputerAction> = new Set(["screenshot", "zoom", "cursor_position", "wait"]);

/** A point as the model gives it. */
export type Coordinate = [number, number];

/** One action with its arguments, as the tool takes it. */
export interface ComputerInput {
  action: ComputerAction;
  coordinate?: Coordinate;
  start_coordinate?: Coordinate;
  text?: string;
  scroll_direction?: "up" | "down" | "left" | "right";
  scroll_amount?: number;
  duration?: number;
  region?: [number, number, number, number];
  repeat?: number;
  /** `per_mille`: coordinates are out of 1000 across the screen (Gemini's computer use). */
  units?: "pixels" | "per_mille";
}

/** True when the action drives the mouse or keyboard. */
export function isInputAction(action: string): boolean {
  return (COMPUTER_ACTIONS as readonly string[]).includes(action) && !OBSERVING_ACTIONS.has(action as ComputerAction);
}

/** One line for a prompt or a classifier: `left_click (120, 340)`, `type "hello"`. */
export function describeAction(input: Partial<ComputerInput>): string {
  const parts: string[] = [String(input.action)];
  if (input.start_coordinate) parts.push(`from (${input.start_coordinate.join(", ")})`);
  if (input.coordinate) parts.push(`${input.start_coordinate ? "to " : ""}(${input.coordinate.join(", ")})${input.units === "per_mille" ? "‰" : ""}`);
  if (input.scroll_direction) parts.push(`${input.scroll_direction} x${input.scroll_amount ?? 1}`);
  if (input.text !== undefined) parts.push(JSON.stringify(input.text.length > 80 ? `${input.text.slice(0, 79)}…` : input.text));
  if (input.duration !== undefined) parts.push(`${input.duration} s`);
  return parts.join(" ");
}
