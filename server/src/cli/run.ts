/** `agent-lsp run "PROMPT"`: one headless agent turn in the current directory. */
import { flagValue, parseArgs } from "./args.js";
import { createHeadlessRuntime, parseMode } from "./headless-runtime.js";

/** Runs the turn; exit status 0 when it ended normally, 1 otherwise. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ["mode", "model"]);
  const prompt = args.positionals.join(" ").trim();
  if (!prompt) throw new Error('run needs a prompt: agent-lsp run "what to do"');
  const mode = parseMode(flagValue(args, "mode"));
  const json = args.flags.has("json");
  const { runtime, editor } = createHeadlessRuntime({
    json,
    interactive: Boolean(process.stdin.isTTY),
    allowUntrusted: args.flags.has("allow-untrusted-tools"),
  });
  const session = runtime.agent.newSession({ ...(mode ? { mode } : {}), ...(flagValue(args, "model") ? { model: flagValue(args, "model") } : {}) });
  const onSigint = () => runtime.agent.cancel(session.sessionId);
  process.once("SIGINT", onSigint);
  try {
    const result = await runtime.agent.prompt({ sessionId: session.sessionId, prompt });
    editor.finish();
    if (json) process.stdout.write(`${JSON.stringify({ sessionId: session.sessionId, result })}\n`);
    else if (result.stopReason !== "end_turn") process.stderr.write(`stopped: ${result.stopReason}${result.error ? `: ${result.error}` : ""}\n`);
    return result.stopReason === "end_turn" ? 0 : 1;
  } finally {
    process.off("SIGINT", onSigint);
    await runtime.dispose();
  }
}
