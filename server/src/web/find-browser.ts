/**
 * Finds the Chromium browser_action drives: `[browser] executable`, else the usual names on PATH
 * (Debian's `chromium` first). Synchronous and cheap (a few stat calls), so the tool can be
 * registered only where a browser exists.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** Program names tried on PATH, in order. */
const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** The browser's path, or undefined with none found. */
export function findBrowser(configured: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (configured) return isExecutable(configured) ? configured : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    for (const name of BROWSER_NAMES) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
