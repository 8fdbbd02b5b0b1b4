/**
 * `agent-lsp mcp list [--json] [--verbose]`: starts every server as a session would and says how
 * each one is. Each server's line is printed as soon as that server answers (or fails, or is not
 * approved): a slow or silent one holds back only itself, and is reported when its own
 * `startup_timeout_s` runs out. On a terminal, a line on stderr every few seconds names the
 * servers still being waited for. `--json` prints every server at the end, in name order.
 */
import type { McpManager, ServerStatus } from "../mcp/manager.js";
import { describeSignIn } from "../mcp/oauth/mcp-auth.js";
import { withoutKeyringAdvice } from "../mcp/oauth/keyring-store.js";
import { describeStatus } from "../mcp/status-text.js";
import { parseArgs } from "./args.js";
import { createHeadlessRuntime } from "./headless-runtime.js";

/** The id under which the CLI needs the servers (approval prompts and status lines name it). */
export const CLI_NEED = "cli";

/** A server's status with the sign-in state of a remote server that signs in with OAuth. */
export type ListedStatus = ServerStatus & { signIn?: string };

/** How often the terminal hears which servers are still being waited for. */
const WAITING_EVERY_MS = 5000;

/** States a server stays in until something happens to it: its line can be printed. */
const SETTLED = new Set<ServerStatus["state"]>(["ready", "failed", "not_approved", "disabled", "restarting", "misconfigured"]);

/** Runs `mcp list`; `usage` answers --help. */
export async function listCommand(argv: string[], usage: string): Promise<number> {
  const args = parseArgs(argv, { flags: ["json", "verbose"] });
  if (args.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const json = args.flags.has("json");
  const { runtime } = createHeadlessRuntime({ quiet: true, interactive: Boolean(process.stdin.isTTY), verbose: args.flags.has("verbose") });
  const manager = runtime.mcp.manager;
  const printer = new LinePrinter(manager, json);
  const began = Date.now();
  const stop = manager.onChange((name) => printer.settled(name));
  const ticker = process.stderr.isTTY && !json ? setInterval(() => waitingLine(manager, began), WAITING_EVERY_MS) : undefined;
  try {
    // No session is made (it would leave an empty conversation behind): the need is the CLI's own.
    await runtime.mcp.prepare(CLI_NEED, undefined, { signIn: false });
    stop();
    const statuses = manager.statuses();
    for (const s of statuses) printer.settled(s.name, true);
    await printer.idle();
    if (json) process.stdout.write(`${JSON.stringify(await Promise.all(statuses.map((s) => withSignIn(manager, s))), null, 2)}\n`);
    else if (!statuses.length) process.stdout.write("No MCP server is configured (agent-lsp mcp add NAME ...).\n");
    return 0;
  } finally {
    stop();
    clearInterval(ticker);
    await runtime.dispose();
  }
}

/**
 * `… waiting for db, docs (10 s)` on stderr: the servers still starting. Not while a project
 * server's approval is asked (a server not started yet), which the line would break into.
 */
function waitingLine(manager: McpManager, began: number): void {
  const statuses = manager.statuses();
  const starting = statuses.filter((s) => s.state === "starting").map((s) => s.name);
  if (!starting.length || statuses.some((s) => s.state === "stopped")) return;
  process.stderr.write(`… waiting for ${starting.join(", ")} (${Math.round((Date.now() - began) / 1000)} s; each has its startup_timeout_s)\n`);
}

/** Prints each server's line once, when it has settled, in the order they settle. */
class LinePrinter {
  private readonly printed = new Set<string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly manager: McpManager,
    private readonly quiet: boolean,
  ) {}

  /** The server changed: its line goes out if it has settled (or `final`: the start is over). */
  settled(name: string, final = false): void {
    const status = this.manager.status(name);
    if (!status || this.printed.has(name) || (!final && !SETTLED.has(status.state))) return;
    this.printed.add(name);
    if (this.quiet) return;
    // The sign-in state is read from the token store: lines keep the order their servers settled in.
    this.queue = this.queue.then(async () => void process.stdout.write(`${statusLine(await withSignIn(this.manager, status))}\n`));
  }

  /** Resolves when every line asked for is out. */
  idle(): Promise<void> {
    return this.queue;
  }
}

/** The status, with the sign-in state of a remote server that signs in with OAuth. */
async function withSignIn(manager: McpManager, s: ServerStatus): Promise<ListedStatus> {
  const spec = manager.connection(s.name)?.spec;
  if (!spec?.oauthEnabled) return s;
  return { ...s, signIn: describeSignIn(await manager.auth.state(spec)) };
}

/**
 * `name  stdio  2026-07-28  ready: 4 tools, ...`. How to fix a keyring that cannot be reached is
 * left to doctor, which says it once: a list of remote servers would repeat it on every line.
 */
export function statusLine(s: ListedStatus): string {
  const where = s.projectSource ? ` (from ${s.projectSource})` : "";
  const signIn = s.signIn ? `; ${s.signIn}` : "";
  return withoutKeyringAdvice(`${s.name.padEnd(16)} ${s.transport.padEnd(5)} ${(s.protocolVersion ?? "-").padEnd(10)} ${describeStatus(s)}${signIn}${where}`);
}
