/**
 * Whether this machine has a screen the computer tool can drive: Linux with an X11 display
 * (XWayland counts). Said in words the user can act on when it has not.
 */

/** Why there is no usable display, or undefined when there is one. */
export function displayProblem(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== "linux") return `The computer tool runs on Linux with X11; this is ${platform}.`;
  if (env.DISPLAY) return undefined;
  if (env.WAYLAND_DISPLAY || env.XDG_SESSION_TYPE === "wayland") {
    return "This is a Wayland session without X11 (DISPLAY is not set): the computer tool needs X11. Log in to an X11 session, or start agent-lsp with DISPLAY set to an XWayland display.";
  }
  return "No display: DISPLAY is not set, so there is no screen to look at or drive. Start agent-lsp from a graphical X11 session (or set DISPLAY).";
}
