/**
 * `agent-lsp mcp login NAME [--paste]` and `agent-lsp mcp logout NAME`: the terminal side of the
 * OAuth sign-in to a remote MCP server. The authorization address opens in the system browser
 * (`$BROWSER`, else xdg-open / open / start) and is printed too; with `--paste` (a remote shell,
 * where the browser cannot reach this machine's 127.0.0.1) the user pastes the address the
 * browser ended on.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { loadConfig } from "../config/load.js";
import { McpAuth } from "../mcp/oauth/mcp-auth.js";
import type { SignInUi } from "../mcp/oauth/sign-in.js";
import { serverSpecs, type McpServerSpec } from "../mcp/specs.js";
import { parseArgs } from "./args.js";

/** `mcp login NAME [--paste]`. */
export async function loginCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { flags: ["paste"] });
  if (!args.positionals[0] || args.help) return usage("agent-lsp mcp login NAME [--paste]", args.help);
  const name = args.positionals[0];
  const { spec, auth } = remoteServer(name);
  if (!spec) return 1;
  return signInFromTerminal(spec, auth, args.flags.has("paste"));
}

/** `mcp logout NAME`. */
export async function logoutCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const name = args.positionals[0];
  if (!name || args.help) return usage("agent-lsp mcp logout NAME", args.help);
  const { config } = loadConfig({ root: process.cwd() });
  const auth = new McpAuth({ config: () => config });
  const deleted = await auth.logout(name);
  process.stdout.write(deleted ? `Signed out of "${name}": its tokens were deleted from ${auth.store().where}.\n` : `No sign-in of "${name}" is stored in ${auth.store().where}; nothing to delete.\n`);
  return 0;
}

/** Signs in to `spec` from the terminal; exit code 0 when signed in. */
export async function signInFromTerminal(spec: McpServerSpec, auth: McpAuth, paste: boolean): Promise<number> {
  try {
    await auth.signIn(spec, terminalUi(spec.name, paste));
    process.stdout.write(`Signed in to "${spec.name}". Its tokens are in ${auth.store().where}.\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`agent-lsp mcp login: the sign-in to "${spec.name}" failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    // A paste that never came (the browser reached the callback after all) must not keep the command waiting.
    if (paste) process.stdin.destroy();
  }
}

/** The configured remote server `name`, or an error printed and no spec. */
function remoteServer(name: string): { spec?: McpServerSpec; auth: McpAuth } {
  const root = process.cwd();
  const { config } = loadConfig({ root });
  const auth = new McpAuth({ config: () => config });
  const { specs, errors } = serverSpecs(config, root);
  const spec = specs.find((s) => s.name === name);
  const problem = errors.find((e) => e.name === name)?.message;
  if (spec?.transport === "http") return { spec, auth };
  process.stderr.write(
    `agent-lsp mcp login: ${problem ? `the MCP server "${name}" is misconfigured: ${problem}` : spec ? `"${name}" is a local server (command): only remote servers (url) sign in` : `no MCP server "${name}" is configured (agent-lsp mcp list)`}\n`,
  );
  return { auth };
}

function terminalUi(name: string, paste: boolean): SignInUi {
  return {
    open(url) {
      process.stdout.write(`Sign in to "${name}" in your browser. If it does not open, open this address:\n\n  ${url}\n\n`);
      if (paste) process.stdout.write("Then paste here the whole address the browser ended on (it starts with http://127.0.0.1):\n");
      else openBrowser(url);
    },
    ...(paste ? { pasted: readLine } : {}),
  };
}

/** Opens `url` in the system browser; a failure is said, not fatal (the address is printed). */
function openBrowser(url: string): void {
  const [command, ...args] = browserCommand(url);
  try {
    const child = spawn(command!, args, { detached: true, stdio: "ignore" });
    child.on("error", (err) => process.stderr.write(`(could not open a browser: ${err.message}; open the address above yourself, or use --paste)\n`));
    child.unref();
  } catch (err) {
    process.stderr.write(`(could not open a browser: ${(err as Error).message})\n`);
  }
}

function browserCommand(url: string): string[] {
  if (process.env.BROWSER) return [process.env.BROWSER, url];
  if (process.platform === "darwin") return ["open", url];
  if (process.platform === "win32") return ["cmd", "/c", "start", '""', url];
  return ["xdg-open", url];
}

function readLine(): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin });
    rl.once("line", (line) => {
      rl.close();
      resolve(line);
    });
  });
}

/** The usage line: asked for (--help) on stdout with status 0, else on stderr with status 2. */
function usage(line: string, asked = false): number {
  (asked ? process.stdout : process.stderr).write(`Usage: ${line}\n`);
  return asked ? 0 : 2;
}
