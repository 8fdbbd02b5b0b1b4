// Bundles the server into server/dist/. The entry is one file so start-up does not resolve
// hundreds of modules; heavy dependencies (provider SDKs) are reached through dynamic import()
// and land in their own chunks, loaded only when a session first needs them.
import { build } from "esbuild";
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const outdir = `${here}dist`;

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { "agent-lsp": `${here}src/cli.ts` },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  chunkNames: "chunks/[name]-[hash]",
  define: { AGENT_LSP_VERSION: JSON.stringify(pkg.version) },
  banner: {
    // Bundled CommonJS packages call require() for Node built-ins; ESM has no require of its own.
    js: "#!/usr/bin/env node\nimport { createRequire as __agentLspCreateRequire } from 'node:module';\nconst require = __agentLspCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
chmodSync(`${outdir}/agent-lsp.js`, 0o755);
