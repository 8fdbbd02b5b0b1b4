/** `agent-lsp run "PROMPT"`: one headless agent turn in the current directory (docs/headless.md). */
import type { OutputFormat } from "../editor/headless.js";
import { headlessLine } from "../protocol/headless-stream.js";
import { flagValue, parseArgs, UsageError, type ParsedArgs } from "./args.js";
import { EXIT_HELP } from "./exit-codes.js";
import { createHeadlessRuntime, parseMode } from "./headless-runtime.js";
import { RunRecord } from "./run-outcome.js";
import { openSession } from "./run-session.js";
import { runPrompt, slashCommandOf } from "./run-turn.js";

const RUN_HELP = `Usage: agent-lsp run [options] "PROMPT"
       agent-lsp run [options] -            (the prompt from stdin; also when no PROMPT is given and stdin is not a terminal)
  --mode read_only|plan|ask|auto|full_access
  --model NAME/model-id
  --output-format text|json|stream-json
                                text (default): the answer on stdout, tool lines and the tokens line on stderr;
                                json: one JSON object at the end (answer, usage, cost, session id, stop reason);
                                stream-json: one JSON line per update, then a result line (docs/headless.md).
  --json                        The same as --output-format stream-json.
  --continue                    Continue the project's most recent session.
  --resume ID                   Continue the saved session ID (each run says its id).
  --allow-untrusted-tools       Without a terminal, allow gated actions instead of refusing.
  --verbose                     The log (MCP servers' stderr included) on stderr too, not only in .agent-lsp/logs.
  --                            Ends the options: a prompt that starts with "-" goes after it.
A PROMPT that is a slash command (/compact, /model NAME, a workflow, /mcp__server__prompt ARGS) runs it.
${EXIT_HELP}`;

const FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];

/** Runs the prompt; the exit status says how it ended (exit-codes.ts). */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ["mode", "model", "output-format", "resume"], flags: ["json", "continue", "allow-untrusted-tools", "verbose"] });
  if (args.help) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  const output = outputFormat(args);
  const mode = parseMode(flagValue(args, "mode"));
  const resume = flagValue(args, "resume");
  const prompt = (await promptOf(args.positionals)).trim();
  if (!prompt) throw new UsageError('run needs a prompt: agent-lsp run "what to do" (or pipe it in: echo "what to do" | agent-lsp run -)');
  let cancel = () => {};
  const { runtime, editor } = createHeadlessRuntime({
    output,
    // A prompt read from stdin leaves no terminal to answer questions on.
    interactive: Boolean(process.stdin.isTTY),
    allowUntrusted: args.flags.has("allow-untrusted-tools"),
    verbose: args.flags.has("verbose"),
    onInterrupt: () => cancel(),
  });
  try {
    const session = await openSession(runtime, editor, { continueLast: args.flags.has("continue"), ...(resume ? { resume } : {}), ...(mode ? { mode } : {}), ...(flagValue(args, "model") ? { model: flagValue(args, "model")! } : {}) });
    if (output === "stream-json") process.stdout.write(headlessLine({ type: "session", sessionId: session.sessionId, mode: session.mode, model: session.model, resumed: session.resumed }));
    const record = new RunRecord(runtime.events, session.sessionId);
    cancel = () => runtime.agent.cancel(session.sessionId);
    process.once("SIGINT", cancel);
    try {
      const command = slashCommandOf(prompt);
      editor.turnStarted(command ? `running /${command.name}` : undefined);
      const ran = await runPrompt(runtime.agent, session.sessionId, prompt);
      editor.finish();
      if (ran.message !== undefined) {
        record.said(ran.message);
        if (output === "text") process.stdout.write(`${ran.message.trimEnd()}\n`);
        if (output === "stream-json") process.stdout.write(headlessLine({ type: "command", sessionId: session.sessionId, command: ran.command!, message: ran.message }));
      }
      const result = record.result(session.sessionId, ran.outcome, editor.refusedApprovals);
      if (output === "text") process.stderr.write(endLines(result));
      else process.stdout.write(headlessLine(result));
      return result.exitCode;
    } finally {
      process.off("SIGINT", cancel);
      record.dispose();
    }
  } finally {
    await runtime.dispose();
  }
}

/** --output-format, or --json (its old name for stream-json). */
function outputFormat(args: ParsedArgs): OutputFormat {
  const given = flagValue(args, "output-format");
  if (given !== undefined && !FORMATS.includes(given as OutputFormat)) throw new UsageError(`--output-format must be one of ${FORMATS.join(", ")}; got "${given}".`);
  if (given !== undefined && args.flags.has("json") && given !== "stream-json") throw new UsageError(`--json is --output-format stream-json; it cannot go with --output-format ${given}.`);
  return (given as OutputFormat | undefined) ?? (args.flags.has("json") ? "stream-json" : "text");
}

/** What text output says on stderr at the end: how the turn stopped when not normally, refusals, the session to resume. */
function endLines(result: ReturnType<RunRecord["result"]>): string {
  const lines: string[] = [];
  if (result.stopReason !== "end_turn") lines.push(`stopped: ${result.stopReason}${result.error ? `: ${result.error}` : ""}`);
  if (result.refusedApprovals) {
    lines.push(`refused: ${result.refusedApprovals} action(s) needed approval and there was no terminal to ask; run with --allow-untrusted-tools or a more permissive --mode`);
  }
  lines.push(`session: ${result.sessionId} (continue it: agent-lsp run --resume ${result.sessionId} "...")`);
  return `${lines.join("\n")}\n`;
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
