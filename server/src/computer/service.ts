/**
 * The computer tool's shared state: each session's ComputerSessionState and the desktop to drive
 * (nut-js on the real display; tests may put another here). Light: nut-js loads on first use.
 */
import type { Desktop } from "./desktop.js";
import { ComputerStates } from "./state.js";

/** The key of the computer service in ToolServices. */
export const COMPUTER_SERVICE = "computer";

/** The computer tool's shared state. */
export interface ComputerService {
  states: ComputerStates;
  /** The desktop; undefined means nut-js on DISPLAY. */
  desktop?: () => Promise<Desktop>;
  /** Pause after each input action (0.5 s). */
  settleMs: number;
}

/** A new computer service on the real display. */
export function createComputerService(): ComputerService {
  return { states: new ComputerStates(), settleMs: 500 };
}
