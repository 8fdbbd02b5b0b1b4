/**
 * The requests agent-lsp makes of ready servers on the model's or the user's behalf: call a tool,
 * list and read resources (by URI or by template), complete a template variable, fetch a prompt.
 * Each result comes back as content for the model, labelled with its server as untrusted; each
 * failure as an Error whose message names the server and says what went wrong.
 */
import type { ContentBlock } from "../vocabulary/messages.js";
import { fitImageBlock } from "../images/fit.js";
import { resourceBlocks, toolResultBlocks, type ReadCall } from "./content.js";
import type { McpManager } from "./manager.js";
import { loadSdk } from "./sdk.js";
import type { McpToolEntry } from "./tool-entries.js";

/** A result for the model. */
export interface McpResult {
  isError: boolean;
  content: ContentBlock[];
}

/** Most bytes of template arguments (and of a completion request) the model may send. */
const MAX_ARGUMENT_BYTES = 64 * 1024;
/** Longest URI a template may expand to. */
const MAX_URI_CHARS = 4096;

/** One progress notification of a running call, as the server sent it. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Calls one tool; `signal` cancels the request (the server gets notifications/cancelled). The call
 * carries a progress token, so a server that reports progress restarts `tool_timeout_s` with each
 * report (the SDK sends no token without a progress callback); `onProgress` hears each report.
 */
export async function callMcpTool(
  manager: McpManager,
  entry: McpToolEntry,
  args: unknown,
  signal: AbortSignal,
  readCall: ReadCall,
  onProgress: (progress: McpProgress) => void = () => {},
): Promise<McpResult> {
  const connection = serverOf(manager, entry.server);
  const timeout = connection.spec.toolTimeoutMs;
  const onprogress = ({ progress, total, message }: McpProgress) =>
    onProgress({ progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) });
  const result = await named(entry.server, () =>
    connection.request(
      (c) =>
        c.callTool(
          { name: entry.rawName, arguments: (args ?? {}) as Record<string, unknown> },
          { signal, timeout, resetTimeoutOnProgress: true, onprogress, toolDefinition: entry.definition },
        ),
      { timeoutMs: timeout, signal },
    ),
  );
  const content = toolResultBlocks(result, { server: entry.server, what: `tool ${entry.rawName}` }, readCall);
  return { isError: result.isError === true, content: await fitImages(content) };
}

/** Reads one resource by its exact URI, through the server that offers it. */
export async function readMcpResource(manager: McpManager, server: string, uri: string, signal: AbortSignal): Promise<McpResult> {
  if (uri.length > MAX_URI_CHARS) throw new Error(`The URI is ${uri.length} characters long; at most ${MAX_URI_CHARS} are allowed.`);
  const connection = serverOf(manager, server);
  const result = await named(server, () => connection.request((c) => c.readResource({ uri }, { signal, cacheMode: "bypass" }), { signal }));
  return { isError: false, content: await fitImages(resourceBlocks(result.contents, { server, what: `resource ${uri}` })) };
}

/**
 * Pictures from a server, fitted to what the providers take (size, pixels) the way read_file's
 * and the desktop's are; one that cannot be read as a picture is said, not sent.
 */
async function fitImages(blocks: ContentBlock[]): Promise<ContentBlock[]> {
  return Promise.all(
    blocks.map(async (b): Promise<ContentBlock> => {
      if (b.type !== "image") return b;
      try {
        return await fitImageBlock(b);
      } catch (err) {
        return { type: "text", text: `[a ${b.mediaType} picture that could not be read: ${(err as Error).message}]` };
      }
    }),
  );
}

/** Expands a template the server advertises with the model's values (strings or lists of strings). */
export async function expandTemplate(manager: McpManager, server: string, template: string, args: Record<string, unknown>): Promise<string> {
  advertisedTemplate(manager, server, template);
  checkArgumentSize(args);
  for (const [k, v] of Object.entries(args)) {
    if (typeof v !== "string" && !(Array.isArray(v) && v.every((x) => typeof x === "string"))) {
      throw new Error(`Template argument "${k}" must be a string or a list of strings.`);
    }
  }
  const { client } = await loadSdk();
  const uri = new client.UriTemplate(template).expand(args as Record<string, string | string[]>);
  if (uri.length > MAX_URI_CHARS) throw new Error(`The template expands to a ${uri.length}-character URI; at most ${MAX_URI_CHARS} are allowed.`);
  return uri;
}

/** Asks the server for values of one template variable (`completion/complete`). */
export async function completeTemplateArgument(
  manager: McpManager,
  request: { server: string; template: string; argument: { name: string; value: string }; arguments?: Record<string, string> },
  signal: AbortSignal,
): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
  const { server, template, argument } = request;
  const connection = advertisedTemplate(manager, server, template);
  if (!connection.listing?.capabilities.completions) throw new Error(`The MCP server "${server}" does not offer completions.`);
  checkArgumentSize(request);
  const { client } = await loadSdk();
  const variables = new client.UriTemplate(template).variableNames;
  if (!variables.includes(argument.name)) throw new Error(`"${argument.name}" is not a variable of ${template} (its variables: ${variables.join(", ") || "none"}).`);
  const result = await named(server, () =>
    connection.request((c) =>
      c.complete(
        { ref: { type: "ref/resource", uri: template }, argument, ...(request.arguments ? { context: { arguments: request.arguments } } : {}) },
        { signal },
      ),
      { signal },
    ),
  );
  const { values, total, hasMore } = result.completion;
  return { values, ...(total !== undefined ? { total } : {}), ...(hasMore !== undefined ? { hasMore } : {}) };
}

/** Each resource of each resources-capable server (or of one), as JSON; a server whose listing fails reports its error in place. */
export async function listMcpResources(manager: McpManager, server: string | undefined, signal: AbortSignal): Promise<string> {
  const servers = server ? [server] : manager.resourceServers();
  if (server) serverOf(manager, server);
  const out = await Promise.all(
    servers.map(async (name) => {
      try {
        const connection = serverOf(manager, name);
        const { resources } = await connection.request((c) => c.listResources(undefined, { signal, cacheMode: "bypass" }), { signal });
        return resources.map((r) => ({ server: name, uri: r.uri, name: r.name, ...(r.description ? { description: r.description } : {}), ...(r.mimeType ? { mimeType: r.mimeType } : {}) }));
      } catch (err) {
        if ((err as Error).name === "AbortError") throw err;
        return [{ server: name, error: (err as Error).message }];
      }
    }),
  );
  return JSON.stringify(out.flat(), null, 2);
}

/** A prompt's text with the user's arguments filled in; parts that are not text are left out with a note. */
export async function getMcpPrompt(manager: McpManager, server: string, name: string, args: Record<string, string>, signal: AbortSignal): Promise<string> {
  const connection = serverOf(manager, server);
  const result = await named(server, () => connection.request((c) => c.getPrompt({ name, arguments: args }, { signal }), { signal }));
  const parts: string[] = [];
  let skipped = 0;
  for (const message of result.messages) {
    const content = message.content as { type: string; text?: string; resource?: { text?: string } };
    if (content.type === "text" && typeof content.text === "string") parts.push(content.text);
    else if (content.type === "resource" && typeof content.resource?.text === "string") parts.push(content.resource.text);
    else skipped += 1;
  }
  if (skipped) parts.push(`(${skipped} part${skipped === 1 ? "" : "s"} of the prompt that ${skipped === 1 ? "is" : "are"} not text left out)`);
  return parts.join("\n\n");
}

function serverOf(manager: McpManager, server: string) {
  const connection = manager.connection(server);
  if (!connection) {
    const names = manager.serverNames();
    throw new Error(`There is no MCP server "${server}". Configured: ${names.join(", ") || "none"}.`);
  }
  return connection;
}

function advertisedTemplate(manager: McpManager, server: string, template: string) {
  const connection = serverOf(manager, server);
  connection.ready();
  const templates = connection.listing?.templates ?? [];
  if (!templates.some((t) => t.uriTemplate === template)) {
    const known = templates.map((t) => t.uriTemplate);
    throw new Error(`The MCP server "${server}" does not advertise the template ${template}${known.length ? ` (it has: ${known.join(", ")})` : ""}.`);
  }
  return connection;
}

function checkArgumentSize(value: unknown): void {
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > MAX_ARGUMENT_BYTES) throw new Error(`The arguments take ${bytes} bytes; at most ${MAX_ARGUMENT_BYTES} are allowed.`);
}

/** Runs `run`, prefixing a failure's message with the server's name. */
async function named<T>(server: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    const message = (err as Error).message;
    throw new Error(message.startsWith("the MCP server") ? capitalize(message) : `The MCP server "${server}" ${message}`);
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
