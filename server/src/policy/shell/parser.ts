/**
 * The shell grammar: tree-sitter-bash run by web-tree-sitter. Both are WebAssembly (no native
 * build); they are loaded once, on the first command line read, and every later line is parsed
 * synchronously by the same parser. The .wasm files sit beside the bundle (server/build.mjs copies
 * them into server/dist) or, running from source, in their packages.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Node, Parser } from "web-tree-sitter";

/** The two WebAssembly files: the runtime and the bash grammar, with the package each ships in. */
export const SHELL_WASM = [
  { pkg: "web-tree-sitter", file: "web-tree-sitter.wasm" },
  { pkg: "tree-sitter-bash", file: "tree-sitter-bash.wasm" },
] as const;

let loading: Promise<Parser> | undefined;

/**
 * Where a .wasm file is: next to this module or one folder up (the bundle and its chunks), else
 * in its package (running from source).
 */
export function wasmPath(pkg: string, file: string): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, path.dirname(here)]) {
    const candidate = path.join(dir, file);
    if (existsSync(candidate)) return candidate;
  }
  try {
    return createRequire(import.meta.url).resolve(`${pkg}/${file}`);
  } catch {
    throw new Error(`${file} is neither beside agent-lsp (${here}) nor in the ${pkg} package`);
  }
}

async function load(): Promise<Parser> {
  // Imported here, not at the top: a session that runs no command never compiles the runtime's
  // JavaScript (a sixth of the agent's code), and a new session is answered sooner without it.
  const [{ Language, Parser }, [runtime, grammar]] = await Promise.all([
    import("web-tree-sitter"),
    Promise.all(SHELL_WASM.map(({ pkg, file }) => readFile(wasmPath(pkg, file)))),
  ]);
  // Handing the runtime its bytes keeps it from looking for its file beside the bundle itself.
  await Parser.init({ wasmBinary: runtime } as object);
  const parser = new Parser();
  parser.setLanguage(await Language.load(grammar!));
  return parser;
}

/**
 * The parser, loaded on first use. A failed load is not kept: the next command tries again (and
 * until one succeeds every command is refused with the reason, see parseShell).
 */
export function loadShellParser(): Promise<Parser> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    throw new Error(`the shell parser (tree-sitter-bash) could not be loaded: ${(err as Error).message}`);
  });
  return loading;
}

/**
 * Parses `text` and hands its syntax tree's root to `read`, which must finish with it
 * synchronously: the tree's memory (inside the WebAssembly heap) is freed right after.
 */
export async function parseShell<T>(text: string, read: (root: Node) => T): Promise<T> {
  const parser = await loadShellParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error("the shell parser returned no tree");
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}
