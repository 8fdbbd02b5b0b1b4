/**
 * The tools that reach outside the project (the web, a browser, the desktop, image models), each
 * registered only where it can work: web_fetch always; the others when their backend, program
 * or setting is there (docs/tools.md). What each needs loads on its first call, not here.
 */
import type { Config } from "../config/schema.js";
import { COMPUTER_SERVICE, createComputerService } from "../computer/service.js";
import { findBrowser } from "../web/find-browser.js";
import { createWebService, WEB_SERVICE, type WebService } from "../web/service.js";
import { browserActionTool, closeBrowsers } from "./browser-action.js";
import { computerTool } from "./computer.js";
import type { ToolRegistry } from "./registry.js";
import type { ToolServices } from "./types.js";
import { webFetchTool } from "./web-fetch.js";

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
  if (findBrowser(config().browser.executable)) registry.register(browserActionTool);
  if (config().tools.computer) {
    services[COMPUTER_SERVICE] = createComputerService();
    registry.register(computerTool);
  }
  return { dispose: () => closeBrowsers(web) };
}
