/**
 * The SDK transport for one server. A local server is a process agent-lsp starts, so it is
 * contained like a command: its environment carries a containment marker (exec/marker.ts) that
 * every process it starts inherits, and its stderr goes to the log line by line (stdout is the
 * protocol). A remote server gets its headers, literal or read from the environment.
 */
import { MARKER_VAR, markEnv } from "../exec/marker.js";
import { addSecrets, type Logger } from "../util/log.js";
import type { Sdk } from "./sdk.js";
import type { McpServerSpec } from "./specs.js";

/** The last stderr lines of a server, for error messages. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = "";

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly keep = 20,
  ) {}

  /** Adds a chunk of output. */
  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? "";
    for (const line of parts) this.add(line);
  }

  /** The newest non-empty line, if any. */
  last(): string | undefined {
    if (this.partial.trim()) return this.partial.trim();
    return this.lines.at(-1);
  }

  private add(line: string): void {
    if (!line.trim()) return;
    this.lines.push(line);
    if (this.lines.length > this.keep) this.lines.shift();
    this.onLine(line);
  }
}

/** A transport and what it started. */
export interface BuiltTransport {
  transport: InstanceType<Sdk["client"]["StreamableHTTPClientTransport"]> | InstanceType<Sdk["stdio"]["StdioClientTransport"]>;
  stderr?: StderrTail;
}

/** The OAuth client of a remote server (mcp/oauth/provider.ts), as the SDK's transport takes it. */
export type TransportAuth = import("@modelcontextprotocol/client").OAuthClientProvider;

/**
 * Builds the transport for `spec`; `marker` is the containment token of this start. `auth` signs
 * the requests of a remote server that uses OAuth.
 */
export function buildTransport(
  sdk: Sdk,
  spec: McpServerSpec,
  marker: string,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
  auth?: TransportAuth,
  launch?: { file: string; args: readonly string[]; env: Record<string, string> },
): BuiltTransport {
  if (spec.transport === "http") return { transport: httpTransport(sdk, spec, env, auth) };
  const inherited = env[MARKER_VAR];
  const marked = markEnv(inherited ? { [MARKER_VAR]: inherited } : {}, marker);
  const transport = new sdk.stdio.StdioClientTransport({
    // A server that opts into the sandbox starts as the sandbox's program line, which runs it.
    command: launch?.file ?? spec.command!,
    args: launch ? [...launch.args] : spec.args,
    // The SDK adds the few variables a program needs (PATH, HOME, ...): servers do not get the
    // editor's whole environment, and with it the provider keys, unless the config says so.
    env: { ...passedOn(spec.envVars, env), ...spec.env, ...launch?.env, ...marked },
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
    stderr: "pipe",
  });
  const stderr = new StderrTail((line) => log.info(`mcp ${spec.name}: ${line}`));
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  return { transport, stderr };
}

/** The named variables that are set in `env`, as they are. */
function passedOn(names: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] !== undefined ? [[name, env[name]!]] : [])));
}

function httpTransport(sdk: Sdk, spec: McpServerSpec, env: NodeJS.ProcessEnv, auth: TransportAuth | undefined) {
  const headers: Record<string, string> = { ...spec.headers };
  for (const [header, variable] of Object.entries(spec.envHeaders)) {
    const value = env[variable];
    if (value === undefined) throw new Error(`env_headers: ${header} comes from $${variable}, which is not set`);
    headers[header] = value;
  }
  if (spec.bearerTokenEnv) {
    const token = env[spec.bearerTokenEnv];
    if (!token) throw new Error(`bearer_token_env_var: the token comes from $${spec.bearerTokenEnv}, which is not set`);
    headers.Authorization = `Bearer ${token}`;
    addSecrets(token);
  }
  // Header values are credentials more often than not: never in a log.
  addSecrets(...Object.values(headers));
  return new sdk.client.StreamableHTTPClientTransport(new URL(spec.url!), {
    requestInit: { headers },
    // A 403 insufficient_scope ends the start: the user signs in again (asking for the union of
    // scopes) rather than a browser opening in the middle of a turn.
    ...(auth ? { authProvider: auth, onInsufficientScope: "throw" as const } : {}),
  });
}
