/**
 * The computer tool's action names (Anthropic's computer toolset members), shared by the tool
 * (computer/) and the provider-native rewrites (providers/native/) that map onto it.
 */

/** Every action of the computer tool. */
export const COMPUTER_ACTIONS = [
  "screenshot",
  "zoom",
  "cursor_position",
  "left_click",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "left_click_drag",
  "mouse_move",
  "left_mouse_down",
  "left_mouse_up",
  "scroll",
  "type",
  "key",
  "hold_key",
  "wait",
] as const;

/** One action name. */
export type ComputerActionName = (typeof COMPUTER_ACTIONS)[number];
