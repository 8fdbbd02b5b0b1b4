/**
 * One headless Chromium per session for browser_action (Cline's browser tool), on puppeteer-core
 * with the system's Chromium. Every request the page makes passes the URL guard first (the launch
 * URL, navigations, and the page's own requests), judged per host with our resolver. Each action
 * answers with a screenshot and the console output since the last one.
 */
import type { Browser, HTTPRequest, Page } from "puppeteer-core";
import { fitImage, toImageBlock } from "../images/fit.js";
import type { ContentBlock } from "../vocabulary/messages.js";
import { checkedAddress, systemResolver, WebError, type Resolver } from "./guarded-fetch.js";

/** The browser's window, as Cline has it. */
const VIEWPORT = { width: 900, height: 600 };

/** What an action answers. */
export interface BrowserAnswer {
  isError: boolean;
  content: ContentBlock[];
}

/** What a browser needs to start and to judge addresses. */
export interface BrowserOptions {
  executable: string;
  allowHosts: readonly string[];
  resolver?: Resolver;
  timeoutMs: number;
}

/** A session's browser. */
export class BrowserSession {
  private browser: Browser | undefined;
  private page: Page | undefined;
  private logs: string[] = [];
  private crashed = false;
  private readonly verdicts = new Map<string, Promise<string | undefined>>();

  constructor(private readonly options: BrowserOptions) {}

  /** True while a browser is open. */
  get isOpen(): boolean {
    return this.browser !== undefined;
  }

  /** Starts the browser at `url` (checked by the guard before anything starts). */
  async launch(url: string): Promise<BrowserAnswer> {
    if (this.browser) return error("A browser is already open in this session: close it first, then launch again.");
    const refusal = await this.judge(url);
    if (refusal) return error(refusal);
    const puppeteer = await import("puppeteer-core");
    this.crashed = false;
    this.browser = await puppeteer.launch({
      executablePath: this.options.executable,
      headless: true,
      defaultViewport: VIEWPORT,
      // As root (containers, CI) Chromium refuses to start sandboxed; /dev/shm is small there too.
      args: [...(process.getuid?.() === 0 ? ["--no-sandbox"] : []), "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check"],
    });
    this.browser.on("disconnected", () => {
      if (this.browser) this.crashed = true;
      this.browser = undefined;
      this.page = undefined;
    });
    this.page = (await this.browser.pages())[0] ?? (await this.browser.newPage());
    await this.watch(this.page);
    return this.settle(async (page) => {
      await page.goto(url, { waitUntil: "domcontentloaded", timeout: this.options.timeoutMs });
    });
  }

  /** Clicks at (x, y) in pixels of the 900x600 screenshot. */
  click(x: number, y: number): Promise<BrowserAnswer> {
    return this.settle((page) => page.mouse.click(x, y));
  }

  /** Types text at the focused element. */
  type(text: string): Promise<BrowserAnswer> {
    return this.settle((page) => page.keyboard.type(text));
  }

  /** Scrolls one window height down (or up). */
  scroll(direction: "up" | "down"): Promise<BrowserAnswer> {
    const dy = direction === "down" ? VIEWPORT.height : -VIEWPORT.height;
    return this.settle((page) => page.evaluate(`window.scrollBy(0, ${dy})`).then(() => undefined));
  }

  /** Closes the browser. */
  async close(): Promise<BrowserAnswer> {
    const browser = this.browser;
    this.browser = undefined;
    this.page = undefined;
    if (!browser) return error("No browser is open in this session.");
    await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
    const logs = this.takeLogs();
    return { isError: false, content: [{ type: "text", text: `The browser is closed.${logs ? `\n\nConsole:\n${logs}` : ""}` }] };
  }

  /** Runs an action on the page, then answers with the screenshot and console output. */
  private async settle(action: (page: Page) => Promise<void>): Promise<BrowserAnswer> {
    const page = this.page;
    if (!page) return error(this.crashed ? "The browser crashed or was closed outside agent-lsp; launch it again." : "No browser is open: use launch with a URL first.");
    try {
      await action(page);
      // Give a click's navigation or a script's changes a moment, without waiting for every ad.
      await page.waitForNetworkIdle({ idleTime: 300, timeout: 3000 }).catch(() => undefined);
      const png = Buffer.from(await page.screenshot({ type: "png" }));
      const fitted = await fitImage(png);
      const logs = this.takeLogs();
      const text = `Page: ${page.url()}\nScreenshot ${fitted.width}x${fitted.height}; click coordinates are its pixels.\n${logs ? `Console:\n${logs}` : "Console: (nothing new)"}`;
      return { isError: false, content: [{ type: "text", text }, toImageBlock(fitted)] };
    } catch (err) {
      if (!this.browser) return error(`The browser crashed while acting (${(err as Error).message}); launch it again.`);
      const logs = this.takeLogs();
      return error(`The browser action failed: ${(err as Error).message}${logs ? `\nConsole:\n${logs}` : ""}`);
    }
  }

  /** Console output and guard refusals go to the log; every request passes the guard. */
  private async watch(page: Page): Promise<void> {
    page.on("console", (m) => this.logs.push(`[${m.type()}] ${m.text()}`));
    page.on("pageerror", (e) => this.logs.push(`[page error] ${(e as Error).message}`));
    await page.setRequestInterception(true);
    page.on("request", (request) => void this.filter(request));
  }

  private async filter(request: HTTPRequest): Promise<void> {
    const url = request.url();
    if (!/^https?:/i.test(url)) return request.continue();
    const refusal = await this.judge(url);
    if (!refusal) return request.continue();
    this.logs.push(`[blocked] ${refusal}`);
    await request.abort("blockedbyclient");
  }

  /** The guard's refusal of `url`'s host, or undefined; remembered per host for the session. */
  private judge(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return Promise.resolve(`${JSON.stringify(url)} is not a valid URL.`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return Promise.resolve(`${parsed.protocol} URLs cannot be opened; only http and https.`);
    let verdict = this.verdicts.get(parsed.host);
    if (!verdict) {
      verdict = checkedAddress(parsed, this.options.allowHosts, this.options.resolver ?? systemResolver).then(
        () => undefined,
        (err: Error) => (err instanceof WebError ? err.message : `Could not check ${parsed.host}: ${err.message}`),
      );
      this.verdicts.set(parsed.host, verdict);
    }
    return verdict;
  }

  private takeLogs(): string {
    const text = this.logs.join("\n");
    this.logs = [];
    return text;
  }
}

function error(text: string): BrowserAnswer {
  return { isError: true, content: [{ type: "text", text }] };
}
