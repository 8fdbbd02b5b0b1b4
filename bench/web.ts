/**
 * Web benchmarks: web_fetch of a 2 MB article from a local server to readable text (target under
 * 300 ms), and `pattern` over a 100,000-line snapshot (target under 20 ms). Both run through the
 * real tool, the local test site (on 127.0.0.1, reached by name through the test resolver).
 */
import { DEFAULT_CONFIG, type Config } from "../server/src/config/schema.js";
import { webFetchTool } from "../server/src/tools/outside/web-fetch.js";
import { searchLines } from "../server/src/web/snapshot-view.js";
import { createWebService, WEB_SERVICE } from "../server/src/web/service.js";
import { articleHtml, SITE_HOST, startTestSite, testResolver } from "../test/helpers/web-server.js";
import { project } from "./files.js";
import { median } from "./stats.js";

/** The web benchmarks' lines. */
export async function benchWeb(): Promise<string[]> {
  const big = articleHtml(12000, "A Very Long Article");
  const site = await startTestSite({
    "/big": (_q, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(big);
    },
  });
  try {
    const { ctx } = project("agent-lsp-bench-web-");
    const config: Config = { ...DEFAULT_CONFIG, web: { ...DEFAULT_CONFIG.web, allow_hosts: [SITE_HOST] } };
    ctx.services[WEB_SERVICE] = { ...createWebService(() => config), resolver: testResolver() };
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      const r = await webFetchTool.execute({ url: `${site.base()}/big` }, ctx);
      const ms = performance.now() - t0;
      if (r.isError || !JSON.stringify(r.content).includes("shown as article")) throw new Error(`web_fetch failed: ${JSON.stringify(r.content).slice(0, 300)}`);
      if (i > 0) times.push(ms); // the first run loads readability and linkedom
    }
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i} of the snapshot with some words ${i % 997 === 0 ? "NEEDLE" : "hay"}`);
    const snapshot = { url: "x", raw: false, header: "", lines, fetchedAt: new Date() };
    const searches: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const r = searchLines(snapshot, "needle");
      searches.push(performance.now() - t0);
      if (r.matches !== 101) throw new Error(`pattern found ${r.matches} lines, expected 101`);
    }
    return [
      `web_fetch_2mb_article ${median(times).toFixed(1)} ms (${(big.length / 1e6).toFixed(1)} MB; target < 300 ms)`,
      `web_pattern_100k_lines ${median(searches).toFixed(1)} ms (target < 20 ms)`,
    ];
  } finally {
    await site.close();
  }
}
