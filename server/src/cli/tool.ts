/**
 * `agent-lsp tool NAME --input JSON [--mode M]`: runs exactly one registered tool in the
 * current directory through the same gate a model's call goes through, and prints its result.
 */
import { runSingleTool } from "../agent/single-tool.js";
import { flagValue, parseArgs, UsageError } from "./args.js";
import { createHeadlessRuntime, parseMode } from "./headless-runtime.js";

const TOOL_HELP = `Usage: agent-lsp tool NAME [--input JSON] [--mode M] [--allow-untrusted-tools] [--verbose]
  Runs one tool through the policy gate in the current directory and prints
  {"isError": bool, "content": [...]}. MCP tools are mcp__SERVER__TOOL: only that server starts.
  The log (MCP servers' stderr included) goes to .agent-lsp/logs; --verbose shows it on stderr too.
Exit status: 0 the result is not an error, 1 it is, 2 usage error.`;

/** Prints `{"isError", "content"}`; exit 0, or 1 when the result is an error. */
export async function toolCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ["input", "mode"], flags: ["allow-untrusted-tools", "verbose"] });
  if (args.help) {
    process.stdout.write(`${TOOL_HELP}\n`);
    return 0;
  }
  const name = args.positionals[0];
  if (args.positionals.length > 1) throw new UsageError(`tool takes one tool name (got ${args.positionals.map((p) => `"${p}"`).join(", ")}); the input goes in --input JSON.`);
  if (!name) throw new UsageError("tool needs a tool name: agent-lsp tool read_file --input '{\"path\":\"README.md\"}'");
  const rawInput = flagValue(args, "input") ?? "{}";
  let input: unknown;
  try {
    input = JSON.parse(rawInput);
  } catch (err) {
    throw new UsageError(`--input is not valid JSON: ${(err as Error).message}`);
  }
  const mode = parseMode(flagValue(args, "mode"));
  const { runtime } = createHeadlessRuntime({
    quiet: true,
    interactive: Boolean(process.stdin.isTTY),
    allowUntrusted: args.flags.has("allow-untrusted-tools"),
    verbose: args.flags.has("verbose"),
  });
  try {
    const session = runtime.agent.newSession(mode ? { mode } : {});
    // An MCP tool needs its own server only: another server's start-up or sign-in never holds it back.
    const result = await runSingleTool(runtime.agent, session.sessionId, name, input, (signal) => runtime.mcp.prepareFor(session.sessionId, name, signal));
    process.stdout.write(`${JSON.stringify({ isError: result.isError, content: result.content })}\n`);
    return result.isError ? 1 : 0;
  } finally {
    await runtime.dispose();
  }
}
