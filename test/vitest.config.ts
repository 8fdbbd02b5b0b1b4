import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  // The bundle gets the version from esbuild's define; tests of the sources get it here.
  define: { AGENT_LSP_VERSION: JSON.stringify(pkg.version) },
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["test/**/*.test.ts"],
    // A home and XDG folders of the run's own: no test writes into the real home.
    globalSetup: ["test/private-home.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Editor and e2e tests spawn processes; two cores do not like more than two forks.
    maxWorkers: 2,
  },
});
