/** `agent-lsp run "PROMPT"`: one headless agent turn in the current directory. */
import { flagValue, parseArgs, UsageError } from "./args.js";
import { createHeadlessRuntime, parseMode } from "./headless-runtime.js";

const RUN_HELP = `Usage: agent-lsp run [options] "PROMPT"
       agent-lsp run [options] -            (the prompt from stdin; also when no PROMPT is given and stdin is not a terminal)
  --mode read_only|plan|ask|auto|full_access
  --model NAME/model-id
  --json                        Stream updates as JSON lines on stdout.
  --allow-untrusted-tools       Without a terminal, allow gated actions instead of refusing.
  --verbose                     The log (MCP servers' stderr included) on stderr too, not only in .agent-lsp/logs.
  --                            Ends the options: a prompt that starts with "-" goes after it.
Exit status: 0 the turn ended normally, 1 it did not (an error, a refusal, a limit), 2 usage error,
130 cancelled (Ctrl-C).`;

/** The exit status of a turn cancelled by Ctrl-C, as shells report a program SIGINT ended. */
const EXIT_CANCELLED = 130;

/** Runs the turn; exit status 0 when it ended normally, 130 when cancelled, 1 otherwise, 2 on a usage error. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ["mode", "model"], flags: ["json", "allow-untrusted-tools", "verbose"] });
  if (args.help) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  const prompt = (await promptOf(args.positionals)).trim();
  if (!prompt) throw new UsageError('run needs a prompt: agent-lsp run "what to do" (or pipe it in: echo "what to do" | agent-lsp run -)');
  const mode = parseMode(flagValue(args, "mode"));
  const json = args.flags.has("json");
  const { runtime, editor } = createHeadlessRuntime({
    json,
    // A prompt read from stdin leaves no terminal to answer questions on.
    interactive: Boolean(process.stdin.isTTY),
    allowUntrusted: args.flags.has("allow-untrusted-tools"),
    verbose: args.flags.has("verbose"),
  });
  const session = runtime.agent.newSession({ ...(mode ? { mode } : {}), ...(flagValue(args, "model") ? { model: flagValue(args, "model") } : {}) });
  const onSigint = () => runtime.agent.cancel(session.sessionId);
  process.once("SIGINT", onSigint);
  try {
    const result = await runtime.agent.prompt({ sessionId: session.sessionId, prompt });
    editor.finish();
    if (json) process.stdout.write(`${JSON.stringify({ sessionId: session.sessionId, result })}\n`);
    else if (result.stopReason !== "end_turn") process.stderr.write(`stopped: ${result.stopReason}${result.error ? `: ${result.error}` : ""}\n`);
    return result.stopReason === "end_turn" ? 0 : result.stopReason === "cancelled" ? EXIT_CANCELLED : 1;
  } finally {
    process.off("SIGINT", onSigint);
    await runtime.dispose();
  }
}

/**
 * The prompt: the words given, or stdin when the only word is `-` or none is given and stdin is
 * piped (`git diff | agent-lsp run -`). A `-` among other words is a usage error, not a prompt.
 */
async function promptOf(words: string[]): Promise<string> {
  if (words.length === 1 && words[0] === "-") return readStdin();
  if (words.includes("-")) throw new UsageError('"-" (the prompt from stdin) stands alone: agent-lsp run - < prompt.txt');
  if (words.length === 0 && !process.stdin.isTTY) return readStdin();
  return words.join(" ");
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
