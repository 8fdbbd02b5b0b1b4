// Bundles the server into server/dist/. The entry is one file so start-up does not resolve
// hundreds of modules; heavy dependencies (provider SDKs) are reached through dynamic import()
// and land in their own chunks, loaded only when a session first needs them.
import { build } from "esbuild";
import { chmodSync, copyFileSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
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

/** The ACP SDK's generated zod schemas (v1 stable, the only schema file the bundle holds). */
const ACP_ZOD_GEN = path.join("node_modules", "@agentclientprotocol", "sdk", "dist", "v1", "schema", "zod.gen.js");

/**
 * The ACP SDK's zod.gen.js builds all of its schemas (178 at SDK 2.4.0) as it loads, right between
 * the answer to `initialize` and the one to `session/new` (issue #34: target 60 ms), though
 * `initialize` and an empty `session/new` parse with 8 of them. Measured on the bundle, eager then
 * lazy: from start to the answer to `session/new`, 1,207 then 1,058 million instructions under
 * callgrind (-12%, two runs each within 0.3%); loading the ACP chunk 23 ms of CPU, then 3-5 ms (and
 * 3.5 ms building those 8), the GC 24-34 ms, then 10-13 ms (CPU profiles, medians of 7 and 9 runs);
 * `session/new` after `initialize` 169 ms, then 140 ms, on a loaded machine where `node -e 0` takes
 * 79 ms (the LSP front end's stayed at 145 ms), and the server 70.0 MB resident, then 65.1 MB
 * (medians of six bench medians of 5).
 *
 * Each top-level `export const zX = EXPR;` becomes `export const zX = z.lazy(() => (EXPR));`, so a
 * schema is built the first time something parses with it or with a schema that holds it. Parsing
 * is the same: ZodLazy hands every parse to the built schema and passes on what objects and unions
 * read of a member (optin, optout, propValues, pattern), and the SDK only composes these constants
 * (.and, .optional, .nullish, .catch, .superRefine, .transform, z.union/z.array/z.object) and
 * parses with them (.parse, .safeParse). Nothing reads `.shape`, `.options`, `._zod.def` or
 * `instanceof` of one, and no z.discriminatedUnion or z.record is keyed by one (a lazy member has
 * no `_zod.values`), so no constant needs to stay eager; the unit test compares the two forms'
 * results (test/unit/build/lazy-acp-schemas.test.ts). The file is parsed with TypeScript's parser,
 * and any other shape of it fails the build instead of bundling it eager.
 */
export const lazyAcpSchemas = {
  name: "lazy-acp-schemas",
  setup(b) {
    let rewritten = false;
    const filter = new RegExp(`${escapeRegExp(ACP_ZOD_GEN)}$`);
    b.onLoad({ filter }, async (args) => {
      const { default: ts } = await import("typescript");
      try {
        const { code } = lazyZodGenSource(readFileSync(args.path, "utf8"), ts);
        rewritten = true;
        return { contents: code, loader: "js", resolveDir: path.dirname(args.path) };
      } catch (error) {
        return { errors: [{ text: `lazy-acp-schemas: ${args.path}: ${error.message}` }] };
      }
    });
    b.onEnd((result) => {
      if (result.errors.length > 0 || rewritten) return undefined;
      return { errors: [{ text: `lazy-acp-schemas: the bundle took no ${ACP_ZOD_GEN}; see where the ACP SDK keeps its schemas now and update the plugin (server/build.mjs)` }] };
    });
  },
};

/**
 * zod.gen.js with each top-level `export const zX = EXPR;` as `export const zX = z.lazy(() =>
 * (EXPR));` (see lazyAcpSchemas). Throws when the file is not imports and such declarations
 * alone, or when what was rewritten is not every `export const z` of the text.
 */
export function lazyZodGenSource(source, ts) {
  const file = ts.createSourceFile("zod.gen.js", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  if (file.parseDiagnostics?.length) throw new Error(`does not parse: ${file.parseDiagnostics[0].messageText}`);
  const where = (node) => `line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  let zodNamespace = false;
  const edits = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (statement.moduleSpecifier.text === "zod/v4" && bindings && ts.isNamespaceImport(bindings) && bindings.name.text === "z") zodNamespace = true;
      continue;
    }
    const exported = ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const declarations = exported ? statement.declarationList.declarations : [];
    const declaration = declarations[0];
    if (!exported || !(statement.declarationList.flags & ts.NodeFlags.Const) || declarations.length !== 1 || !ts.isIdentifier(declaration.name) || !/^z[A-Z]/.test(declaration.name.text) || !declaration.initializer) {
      const text = source.slice(statement.getStart(file), statement.end).split("\n")[0].slice(0, 80);
      throw new Error(`expected imports and \`export const zName = <schema>;\` alone, found at ${where(statement)}: ${text}`);
    }
    edits.push(declaration.initializer);
  }
  if (!zodNamespace) throw new Error('expected `import * as z from "zod/v4"`');
  const declared = source.match(/^export const z/gm)?.length ?? 0;
  if (edits.length === 0 || edits.length !== declared) throw new Error(`rewrote ${edits.length} schemas of the ${declared} \`export const z\` in the text`);
  let code = "";
  let at = 0;
  for (const init of edits) {
    const start = init.getStart(file);
    code += `${source.slice(at, start)}z.lazy(() => (${source.slice(start, init.end)}))`;
    at = init.end;
  }
  return { code: code + source.slice(at), count: edits.length };
}

function escapeRegExp(text) {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

async function bundle() {
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
    plugins: [zodEnglishOnly, lazyAcpSchemas],
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

  // The shell parser's WebAssembly (the tree-sitter runtime and the bash grammar) beside the bundle,
  // where policy/shell/parser.ts looks first: the installed server needs no node_modules for it.
  const require = createRequire(import.meta.url);
  for (const file of ["web-tree-sitter/web-tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"]) {
    copyFileSync(require.resolve(file), path.join(outdir, path.basename(file)));
  }
}

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

// `node server/build.mjs` (npm run build, prepare) bundles; the unit tests import the plugins
// from here without building.
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) await bundle();
