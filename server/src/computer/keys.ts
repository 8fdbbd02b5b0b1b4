/**
 * Key names as models write them (xdotool style, as Anthropic's computer tool documents:
 * "ctrl+s", "Return", "super", "Page_Down", "alt+Tab") turned into nut-js key names. Pure.
 */

const ALIASES: Record<string, string> = {
  ctrl: "LeftControl",
  control: "LeftControl",
  control_l: "LeftControl",
  control_r: "RightControl",
  shift: "LeftShift",
  shift_l: "LeftShift",
  shift_r: "RightShift",
  alt: "LeftAlt",
  alt_l: "LeftAlt",
  alt_r: "RightAlt",
  option: "LeftAlt",
  super: "LeftSuper",
  super_l: "LeftSuper",
  win: "LeftSuper",
  meta: "LeftMeta",
  cmd: "LeftCmd",
  command: "LeftCmd",
  return: "Return",
  enter: "Enter",
  kp_enter: "Enter",
  tab: "Tab",
  escape: "Escape",
  esc: "Escape",
  space: "Space",
  backspace: "Backspace",
  delete: "Delete",
  del: "Delete",
  insert: "Insert",
  home: "Home",
  end: "End",
  page_up: "PageUp",
  pageup: "PageUp",
  prior: "PageUp",
  page_down: "PageDown",
  pagedown: "PageDown",
  next: "PageDown",
  up: "Up",
  down: "Down",
  left: "Left",
  right: "Right",
  caps_lock: "CapsLock",
  print: "Print",
  menu: "Menu",
  minus: "Minus",
  equal: "Equal",
  plus: "Add",
  comma: "Comma",
  period: "Period",
  slash: "Slash",
  backslash: "Backslash",
  semicolon: "Semicolon",
  apostrophe: "Quote",
  grave: "Grave",
  bracketleft: "LeftBracket",
  bracketright: "RightBracket",
};

const PUNCTUATION: Record<string, string> = {
  "-": "Minus",
  "=": "Equal",
  ",": "Comma",
  ".": "Period",
  "/": "Slash",
  "\\": "Backslash",
  ";": "Semicolon",
  "'": "Quote",
  "`": "Grave",
  "[": "LeftBracket",
  "]": "RightBracket",
};

/** The nut-js key names of a combination such as "ctrl+shift+t"; throws naming an unknown key. */
export function parseKeyCombo(combo: string): string[] {
  const parts = combo.trim() === "+" ? ["+"] : combo.split("+").map((p) => p.trim()).filter(Boolean);
  if (!parts.length) throw new Error("no key given");
  return parts.map(keyName);
}

function keyName(part: string): string {
  const lower = part.toLowerCase();
  if (ALIASES[lower]) return ALIASES[lower]!;
  if (/^[a-z]$/.test(lower)) return lower.toUpperCase();
  if (/^[0-9]$/.test(part)) return `Num${part}`;
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(lower)) return lower.toUpperCase();
  if (/^kp_[0-9]$/.test(lower)) return `NumPad${lower.slice(3)}`;
  if (PUNCTUATION[part]) return PUNCTUATION[part]!;
  throw new Error(`unknown key "${part}" (use names such as ctrl, shift, alt, super, Return, Tab, Escape, Page_Down, F5, a, 1)`);
}
