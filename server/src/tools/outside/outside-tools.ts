/**
 * The tools that reach outside the project (the web, a browser, the desktop, image models), each
 * registered only where it can work: web_fetch always; the others when their backend, program
 * or setting is there (docs/tools.md). What each needs loads on its first call, not here.
 */
import type { Config } from "../../config/schema.js";
import { displayProblem } from "../../computer/display.js";
import { COMPUTER_SERVICE, createComputerService } from "../../computer/service.js";
import { findBrowser } from "../../web/find-browser.js";
import { selectBackend } from "../../web/search/select.js";
import { createWebService, WEB_SERVICE, type WebService } from "../../web/service.js";
import { browserActionTool, closeBrowsers } from "./browser-action.js";
import { computerTool } from "./computer.js";
import type { ToolRegistry } from "../registry.js";
import type { ToolServices } from "../types.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";

/** What the outside tools started and must stop. */
export interface OutsideTools {
  /** Closes the browsers still open. */
  dispose(): Promise<void>;
}

/** Registers the outside tools this configuration can run, and the services they share. */
export function registerOutsideTools(registry: ToolRegistry, services: ToolServices, config: () => Config): OutsideTools {
  const web: WebService = createWebService(config);
  services[WEB_SERVICE] = web;
  registry.register(webFetchTool);
  if (selectBackend(config()).viable) registry.register(webSearchTool);
  if (findBrowser(config().browser.executable)) registry.register(browserActionTool);
  if (config().tools.computer) {
    services[COMPUTER_SERVICE] = createComputerService();
    registry.register(computerTool);
  }
  return { dispose: () => closeBrowsers(web) };
}

/** One line per outside tool for `agent-lsp doctor`: whether it is offered, and what to set if not. */
export function outsideToolStatus(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const search = selectBackend(config, env);
  const browser = findBrowser(config.browser.executable, env);
  const display = displayProblem(env);
  return [
    `${"ok".padEnd(7)} web_fetch: [web] allow_hosts = ${JSON.stringify(config.web.allow_hosts)}`,
    `${(search.viable ? "ok" : "missing").padEnd(7)} web_search: ${search.detail}`,
    browser
      ? `${"ok".padEnd(7)} browser_action: ${browser}`
      : `${"missing".padEnd(7)} browser_action: no Chromium found; install chromium or set [browser] executable`,
    !config.tools.computer
      ? `${"off".padEnd(7)} computer: set [tools] computer = true in your user config to offer it`
      : `${(display ? "missing" : "ok").padEnd(7)} computer: ${display ?? `display ${env.DISPLAY}`}`,
  ];
}
