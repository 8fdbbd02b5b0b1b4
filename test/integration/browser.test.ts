/**
 * browser_action on the real Chromium (Debian's `chromium`) against a local page on 127.0.0.1:
 * screenshots the model sees, clicks, typing, scrolling and the console log; the URL guard on
 * the launch URL and on the page's own navigations; a crashed browser. Skips without Chromium,
 * and fails instead under AGENT_LSP_REQUIRE_ALL=1 (CI).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { DEFAULT_CONFIG, type Config } from "../../server/src/config/schema.js";
import { browserActionTool, closeBrowsers } from "../../server/src/tools/outside/browser-action.js";
import { findBrowser } from "../../server/src/web/find-browser.js";
import { createWebService, WEB_SERVICE, type WebService } from "../../server/src/web/service.js";
import { startTestSite, testResolver, type TestSite } from "../helpers/web-server.js";
import { REQUIRE_ALL } from "../helpers/xvfb.js";
import { makeHarness } from "../unit/tools/context.js";

const chromium = findBrowser("");

const PAGE = `<!doctype html><html><head><title>Test page</title><style>body{margin:0;height:3000px} #b{position:absolute;left:100px;top:100px;width:200px;height:50px} #t{position:absolute;left:100px;top:200px;width:300px} #l{position:absolute;left:100px;top:300px}</style></head>
<body><button id="b" onclick="document.title='clicked'; console.log('clicked the button')">Press me</button>
<input id="t" oninput="console.log('value=' + this.value)">
<a id="l" href="http://intranet.example.test/admin">intranet</a>
<script>console.log('page loaded'); window.addEventListener('scroll', () => console.log('scrolled to ' + window.scrollY));</script></body></html>`;

let site: TestSite;
let web: WebService;

if (!chromium && REQUIRE_ALL) {
  it("has Chromium to test with", () => {
    throw new Error("AGENT_LSP_REQUIRE_ALL=1 but no chromium on PATH (apt-get install chromium)");
  });
}

describe.skipIf(!chromium)("browser_action on Chromium", () => {
  beforeAll(async () => {
    site = await startTestSite({
      "/page": (_q, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(PAGE);
      },
    });
  });
  afterAll(() => site.close());
  afterEach(() => closeBrowsers(web));

  function setup() {
    const config: Config = { ...DEFAULT_CONFIG, web: { ...DEFAULT_CONFIG.web, allow_hosts: ["127.0.0.1"] } };
    web = { ...createWebService(() => config), resolver: testResolver() };
    const h = makeHarness();
    h.ctx.services[WEB_SERVICE] = web;
    return (input: Record<string, unknown>) => h.run(browserActionTool, input);
  }

  it("launches, clicks, types, scrolls and closes, showing a screenshot and the console each time", async () => {
    const act = setup();
    const url = `http://127.0.0.1:${site.port}/page`;
    const launched = await act({ action: "launch", url });
    expect(launched.isError).toBe(false);
    expect(launched.text).toContain(`Page: ${url}`);
    expect(launched.text).toContain("[log] page loaded");
    const image = launched.content.find((c) => c.type === "image") as { data: string; mediaType: string };
    expect(image.mediaType).toBe("image/png");
    const meta = await sharp(Buffer.from(image.data, "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([900, 600]);
    expect((await act({ action: "click", coordinate: "200,125" })).text).toContain("[log] clicked the button");
    await act({ action: "click", coordinate: "150,210" });
    expect((await act({ action: "type", text: "hey" })).text).toContain("[log] value=hey");
    expect((await act({ action: "scroll_down" })).text).toContain("[log] scrolled to 600");
    expect((await act({ action: "launch", url })).text).toContain("already open");
    expect((await act({ action: "close" })).text).toContain("The browser is closed.");
    expect((await act({ action: "click", coordinate: "1,1" })).text).toContain("No browser is open");
  });

  it("refuses a private launch URL before starting, and blocks the page's navigation to the intranet", async () => {
    const act = setup();
    const refused = await act({ action: "launch", url: "http://metadata.example.test/latest/" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("169.254.169.254 is a cloud metadata address");
    await act({ action: "launch", url: `http://127.0.0.1:${site.port}/page` });
    const clicked = await act({ action: "click", coordinate: "120,308" });
    expect(clicked.text).toContain("[blocked] Refused http://intranet.example.test/admin: intranet.example.test resolves to 10.0.0.7 is a private network address");
    expect(clicked.text).not.toContain("Page: http://intranet");
  });

  it("says so when the browser crashed, and launches again", async () => {
    const act = setup();
    const url = `http://127.0.0.1:${site.port}/page`;
    await act({ action: "launch", url });
    // The browser's main process: Chromium started by puppeteer, not one of its helpers (--type=...).
    const ps = (await import("node:child_process")).execFileSync("ps", ["-eo", "pid=,ppid=,args="]).toString().split("\n");
    const main = ps.filter((l) => l.includes("--remote-debugging") && !l.includes("--type="));
    const mine = main.map((l) => l.trim().split(/\s+/)).filter(([, ppid]) => Number(ppid) === process.pid);
    expect(mine.length).toBe(1);
    process.kill(Number(mine[0]![0]), "SIGKILL");
    await new Promise((r) => setTimeout(r, 500));
    const after = await act({ action: "click", coordinate: "200,125" });
    expect(after.isError).toBe(true);
    expect(after.text).toMatch(/crashed/);
    expect((await act({ action: "launch", url })).isError).toBe(false);
  });
});
