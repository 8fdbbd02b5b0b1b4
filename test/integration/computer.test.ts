/**
 * The computer tool on a real X display (Xvfb) with real X programs: screenshots fitted to the
 * model, clicks and typing that reach an X client (xev prints what it receives), one prompt per
 * model message for all its input, read-only refusals, a failure stopping the rest of the batch,
 * and the stop when the user moves the mouse (xdotool, as the user would).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { waitFor } from "../helpers/wait.js";
import { missingXTools, REQUIRE_ALL, startXvfb, type XDisplay } from "../helpers/xvfb.js";
import { richCapabilities, toolResultsSent } from "./safety-helpers.js";

const missing = missingXTools();

/** Screen point (300, 250) in pixels of the 1429x804 screenshot of a 1920x1080 screen. */
const IN_XEV: [number, number] = [223, 186];

let x: XDisplay;
let h: AgentHarness | undefined;
const savedDisplay = process.env.DISPLAY;

async function harness(safety: string): Promise<AgentHarness> {
  h = await startAgentHarness({ options: { safety, tools: { provider_native: false, computer: true } }, capabilities: richCapabilities() });
  return h;
}

/** xev's window at (100, 100)-(500, 400), printing every click and key it gets; resolves once it is up. */
async function xev() {
  const child = x.run("xev", ["-geometry", "400x300+100+100", "-event", "keyboard", "-event", "button"]);
  await x.waitForWindow("Event Tester");
  return child;
}

function call(action: string, extra: Record<string, unknown> = {}) {
  return { name: "computer", input: { action, ...extra } };
}

if (missing && REQUIRE_ALL) {
  it("has a real X display to test on", () => {
    throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${missing}`);
  });
}

describe.skipIf(missing !== undefined)("computer on Xvfb", () => {
  beforeAll(async () => {
    x = await startXvfb(1920, 1080);
    process.env.DISPLAY = x.name;
  });
  afterAll(async () => {
    process.env.DISPLAY = savedDisplay;
    await x?.close();
  });
  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  });

  it("shows a fitted screenshot and sends clicks and keys to the X client after one prompt for the batch", async () => {
    const events = await xev();
    await harness("ask");
    const prompts: any[] = [];
    h!.client.script.requestPermission = (p) => {
      prompts.push(p);
      return { optionId: "allow_once" };
    };
    h!.fake.enqueue(
      { toolCalls: [call("screenshot")] },
      { toolCalls: [call("mouse_move", { coordinate: IN_XEV }), call("left_click", { coordinate: IN_XEV }), call("type", { text: "hi" }), call("key", { text: "Return" })] },
      { text: "done" },
    );
    const id = await h!.newSession();
    await h!.prompt(id, "click in the window and type hi");
    const results = toolResultsSent(h!);
    expect(results[0]!.text).toContain("Screenshot 1429x804 (scaled from 1920x1080)");
    const shot = h!.fake.requests[1]!.body.messages.at(-1).content[0].content.find((c: any) => c.type === "image");
    expect(shot.source.media_type).toBe("image/png");
    expect(results.slice(1).every((r) => !r.isError)).toBe(true);
    expect(prompts).toHaveLength(1);
    expect(prompts[0].summary).toMatch(/^computer: 4 input actions on the desktop: computer mouse_move \(223, 186\); computer left_click \(223, 186\); computer type "hi"; computer key "Return"/);
    await waitFor(() => /KeyRelease event[\s\S]*Return/.test(events.output()), 5000);
    const out = events.output();
    expect(out).toMatch(/ButtonPress event[\s\S]*?root:\(300,250\)/);
    expect(out).toMatch(/keysym 0x68, h\)/);
    expect(out).toMatch(/keysym 0x69, i\)/);
    expect(out).toMatch(/keysym 0xff0d, Return\)/);
    expect(h!.fake.violations).toEqual([]);
  });

  it("looks but does not touch in read_only", async () => {
    await harness("read_only");
    h!.fake.enqueue({ toolCalls: [call("screenshot"), call("left_click", { coordinate: [10, 10] }), call("cursor_position"), call("zoom", { region: [0, 0, 200, 100] })] }, { text: "ok" });
    await h!.prompt(await h!.newSession(), "look");
    const [shot, click, cursor, zoom] = toolResultsSent(h!);
    expect(shot!.isError).toBe(false);
    expect(click!.isError).toBe(true);
    expect(click!.text).toContain("is not allowed: the session is read-only. Screenshots, zoom, cursor_position and wait still work.");
    expect(cursor!.text).toMatch(/The pointer is at \(\d+, \d+\) in screenshot pixels/);
    expect(zoom!.text).toMatch(/Zoom of \[0, 0, 200, 100\]: 26\dx13\d/);
    expect(h!.client.requests.filter((r) => r.method === "agent/requestPermission")).toHaveLength(0);
  });

  it("skips the rest of a message's computer calls after one fails", async () => {
    await harness("full_access");
    h!.fake.enqueue({ toolCalls: [call("key", { text: "ctrl+nosuchkey" }), call("screenshot"), call("type", { text: "x" })] }, { text: "ok" });
    await h!.prompt(await h!.newSession(), "go");
    const [key, shot, type] = toolResultsSent(h!);
    expect(key!.text).toContain('unknown key "nosuchkey"');
    expect(shot!.text).toBe("Not executed: an earlier computer action in this turn failed.");
    expect(type!.text).toBe("Not executed: an earlier computer action in this turn failed.");
  });

  it("runs several steps in one call (per mille too) and shows the screen after them", async () => {
    const events = await xev();
    await harness("full_access");
    // (300, 250) on 1920x1080 is (156.25, 231.5) per mille.
    const steps = [
      { action: "left_click", coordinate: [156.25, 231.5], units: "per_mille" },
      { action: "key", text: "ctrl+nosuchkey" },
      { action: "type", text: "never typed" },
    ];
    h!.fake.enqueue({ toolCalls: [{ name: "computer", input: { steps } }] }, { text: "ok" });
    await h!.prompt(await h!.newSession(), "go");
    const [result] = toolResultsSent(h!);
    expect(result!.isError).toBe(true);
    expect(result!.text).toContain('unknown key "nosuchkey"');
    expect(result!.text).toContain("After them: Screenshot 1429x804");
    const sent = h!.fake.requests[1]!.body.messages.at(-1).content[0].content;
    expect(sent.some((c: any) => c.type === "image")).toBe(true);
    await waitFor(() => /ButtonPress event[\s\S]*?root:\(300,250\)/.test(events.output()), 5000);
    expect(events.output()).not.toMatch(/keysym 0x6e, n\)/);
  });

  it("stops input when the user moves the mouse, until the user's next message", async () => {
    const events = await xev();
    await harness("ask");
    let prompts = 0;
    h!.client.script.requestPermission = () => {
      prompts++;
      // While the second batch is being approved, the user takes the mouse.
      if (prompts === 2) x.userMovesMouse(900, 700);
      return { optionId: "allow_once" };
    };
    h!.fake.enqueue(
      { toolCalls: [call("left_click", { coordinate: IN_XEV })] },
      { toolCalls: [call("left_click", { coordinate: IN_XEV })] },
      { toolCalls: [call("screenshot"), call("left_click", { coordinate: IN_XEV })] },
      { text: "stopped" },
      { toolCalls: [call("left_click", { coordinate: IN_XEV })] },
      { text: "resumed" },
    );
    const id = await h!.newSession();
    await h!.prompt(id, "click twice");
    const results = toolResultsSent(h!);
    expect(results[0]!.isError).toBe(false);
    expect(results[1]!.text).toMatch(/^Not executed: the user moved the mouse/);
    expect(results[2]!.isError).toBe(false);
    expect(results[3]!.text).toMatch(/^Not executed: the user moved the mouse/);
    await h!.prompt(id, "go on");
    expect(toolResultsSent(h!)[4]!.isError).toBe(false);
    await waitFor(() => (events.output().match(/ButtonPress event/g) ?? []).length >= 2, 5000);
    expect((events.output().match(/ButtonPress event/g) ?? []).length).toBe(2);
  });
});

describe("computer without a display", () => {
  afterEach(async () => {
    process.env.DISPLAY = savedDisplay;
    delete process.env.WAYLAND_DISPLAY;
    await h?.dispose();
    h = undefined;
  });

  it.each([
    [{}, "No display: DISPLAY is not set"],
    [{ WAYLAND_DISPLAY: "wayland-0" }, "This is a Wayland session without X11"],
  ])("says so clearly (%o)", async (env, message) => {
    delete process.env.DISPLAY;
    Object.assign(process.env, env);
    await harness("full_access");
    h!.fake.enqueue({ toolCalls: [call("screenshot")] }, { text: "ok" });
    await h!.prompt(await h!.newSession(), "look");
    const [shot] = toolResultsSent(h!);
    expect(shot!.isError).toBe(true);
    expect(shot!.text).toContain(message);
  });

  it("says when DISPLAY names a display that is not there, without crashing the server", async () => {
    process.env.DISPLAY = ":231";
    await harness("full_access");
    h!.fake.enqueue({ toolCalls: [call("screenshot")] }, { text: "ok" });
    await h!.prompt(await h!.newSession(), "look");
    const [shot] = toolResultsSent(h!);
    expect(shot!.text).toMatch(/The computer tool cannot work: the display :231 could not be opened/);
  });
});
