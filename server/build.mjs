// Bundles the server into server/dist/. The entry is one file so start-up does not resolve
// hundreds of modules; heavy dependencies (provider SDKs) are reached through dynamic import()
// and land in their own chunks, loaded only when a session first needs them.
import { build } from "esbuild";
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The banner's CommonJS require; bundled CommonJS packages need it, most chunks never do. */
const REQUIRE_BANNER =
  "import { createRequire as __agentLspCreateRequire } from 'node:module';\nconst require = __agentLspCreateRequire(import.meta.url);";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const outdir = `${here}dist`;

/**
 * zod exports every locale's error messages as `z.locales`, which keeps all of them (a third of
 * zod's size) in the bundle although only English is ever used. The server parses and holds less
 * when that namespace offers English alone.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)) return undefined;
      const dir = path.join(path.dirname(args.importer), "..", "locales");
      return { path: path.join(dir, "index.js"), namespace: "zod-en", pluginData: { dir } };
    });
    b.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: args.pluginData.dir,
      loader: "js",
    }));
  },
};

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
    js: `#!/usr/bin/env node\n${REQUIRE_BANNER}`,
  },
  // Native addons (sharp, nut-js, the keyring) and puppeteer (which resolves its own files at run
  // time) stay packages of their own, imported on first use from node_modules.
  external: ["sharp", "@nut-tree-fork/nut-js", "puppeteer-core", "@napi-rs/keyring"],
  plugins: [zodEnglishOnly],
  // V8 reads every byte of a chunk as it loads it, and Node 20 keeps no compile cache for ES
  // modules: without whitespace and comments a new session compiles a quarter fewer bytes (1.6 MB
  // to 1.2 MB). Names are kept (stack traces and the source maps stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
chmodSync(`${outdir}/agent-lsp.js`, 0o755);
dropUnusedRequire(outdir);
dropUnusedRequire(`${outdir}/chunks`);

/**
 * Takes the banner's require out of every chunk that never names `require`: each one made a
 * CommonJS loader for its file as it loaded (a millisecond over the 26 chunks a new session
 * loads). The two lines are left empty, so the source maps' line numbers still hold.
 */
function dropUnusedRequire(dir) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".js")) continue;
    const file = path.join(dir, name);
    const text = readFileSync(file, "utf8");
    if (!text.includes(REQUIRE_BANNER) || /\brequire\b/.test(text.replace(REQUIRE_BANNER, ""))) continue;
    writeFileSync(file, text.replace(REQUIRE_BANNER, "\n"));
  }
}

// The shell parser's WebAssembly (the tree-sitter runtime and the bash grammar) beside the bundle,
// where policy/shell/parser.ts looks first: the installed server needs no node_modules for it.
const require = createRequire(import.meta.url);
for (const file of ["web-tree-sitter/web-tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"]) {
  copyFileSync(require.resolve(file), path.join(outdir, path.basename(file)));
}
