/**
 * doctor's line about the shell parser: every command the agent runs is read with it (the floors,
 * the approval rules), and without it every command is refused. Says where its WebAssembly was
 * found and that it parses.
 */
import { parseCommandLine } from "../policy/command-line.js";
import { loadShellParser, SHELL_WASM, wasmPath } from "../policy/shell/parser.js";

/** The report lines: `ok` with where the grammar is, or an `ERROR` that says what is missing. */
export async function shellParserReport(): Promise<string[]> {
  try {
    await loadShellParser();
    const where = SHELL_WASM.map(({ pkg, file }) => wasmPath(pkg, file));
    const line = await parseCommandLine("true && echo ok");
    if (line.commands.length !== 2 || line.opaque) throw new Error("a plain line did not parse as two commands");
    return [`  ${"ok".padEnd(7)} shell parser: tree-sitter-bash (${where.join(", ")})`];
  } catch (err) {
    return [`ERROR shell parser: ${(err as Error).message.split("\n")[0]}; every command is refused until it loads (reinstall agent-lsp)`];
  }
}
