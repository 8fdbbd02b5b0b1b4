/**
 * The real screen, mouse and keyboard through nut-js (libnut on X11), loaded on first use. Every
 * coordinate here is in screen pixels; scaling to and from screenshots is the caller's.
 */
import type { RawPixels } from "../images/fit.js";

type Nut = typeof import("@nut-tree-fork/nut-js");

/** Mouse buttons by our names. */
export type MouseButton = "left" | "right" | "middle";

/** What the computer tool does with the desktop. */
export interface Desktop {
  size(): Promise<{ width: number; height: number }>;
  grab(region?: { x: number; y: number; width: number; height: number }): Promise<RawPixels>;
  cursor(): Promise<{ x: number; y: number }>;
  move(x: number, y: number): Promise<void>;
  click(button: MouseButton, count: 1 | 2 | 3): Promise<void>;
  press(button: MouseButton): Promise<void>;
  release(button: MouseButton): Promise<void>;
  scroll(direction: "up" | "down" | "left" | "right", amount: number): Promise<void>;
  type(text: string): Promise<void>;
  /** Presses the keys in order and releases them in reverse (a combination). */
  keys(names: string[]): Promise<void>;
  keyDown(names: string[]): Promise<void>;
  keyUp(names: string[]): Promise<void>;
}

let nutModule: Promise<Nut> | undefined;

async function loadNut(): Promise<Nut> {
  nutModule ??= import("@nut-tree-fork/nut-js").then((nut) => {
    // Our own pauses are explicit (input actions wait 0.5 s); nut's per-step delays only slow us.
    nut.mouse.config.autoDelayMs = 0;
    nut.keyboard.config.autoDelayMs = 0;
    return nut;
  });
  return nutModule;
}

/** The desktop of the display in DISPLAY. */
export async function nutDesktop(): Promise<Desktop> {
  const nut = await loadNut();
  const { mouse, keyboard, screen, Point, Region, Button, Key } = nut;
  const button = (b: MouseButton) => (b === "left" ? Button.LEFT : b === "right" ? Button.RIGHT : Button.MIDDLE);
  const key = (name: string) => {
    const k = (Key as unknown as Record<string, number>)[name];
    if (k === undefined) throw new Error(`unknown key ${name}`);
    return k as never;
  };
  return {
    size: async () => ({ width: await screen.width(), height: await screen.height() }),
    async grab(region) {
      const image = region ? await screen.grabRegion(new Region(region.x, region.y, region.width, region.height)) : await screen.grab();
      return { data: image.data, width: image.width, height: image.height, channels: image.channels as 3 | 4, bgr: image.colorMode === 0 };
    },
    async cursor() {
      const p = await mouse.getPosition();
      return { x: p.x, y: p.y };
    },
    async move(x, y) {
      await mouse.setPosition(new Point(x, y));
    },
    async click(b, count) {
      for (let i = 0; i < count; i++) await mouse.click(button(b));
    },
    async press(b) {
      await mouse.pressButton(button(b));
    },
    async release(b) {
      await mouse.releaseButton(button(b));
    },
    async scroll(direction, amount) {
      if (direction === "up") await mouse.scrollUp(amount);
      else if (direction === "down") await mouse.scrollDown(amount);
      else if (direction === "left") await mouse.scrollLeft(amount);
      else await mouse.scrollRight(amount);
    },
    async type(text) {
      await keyboard.type(text);
    },
    async keys(names) {
      const ks = names.map(key);
      await keyboard.pressKey(...ks);
      await keyboard.releaseKey(...ks.reverse());
    },
    async keyDown(names) {
      await keyboard.pressKey(...names.map(key));
    },
    async keyUp(names) {
      await keyboard.releaseKey(...names.map(key).reverse());
    },
  };
}
