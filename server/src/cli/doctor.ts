/** `agent-lsp doctor`: what configuration was found, which providers can be called, how the MCP servers are, which tools. */
import { VERSION } from "../version.js";
import { statSync } from "node:fs";
import { loadConfig } from "../config/load.js";
import { credentialStatus, knownProviders, parseModelRef } from "../providers/registry.js";
import type { Runtime } from "../agent/runtime.js";
import { outsideToolStatus } from "../tools/outside/outside-tools.js";
import { LANGUAGE_TOOLS } from "../tools/language/language-tools.js";
import { createImageGenerator } from "../providers/image-generation.js";
import { liveReport } from "./doctor-live.js";
import { shellParserReport } from "./doctor-shell.js";
import { sandboxReport } from "./doctor-sandbox.js";
import { createHeadlessRuntime } from "./headless-runtime.js";
import { parseArgs, UsageError } from "./args.js";
import { CLI_NEED, statusLine } from "./mcp-list.js";

const DOCTOR_HELP = `Usage: agent-lsp doctor [--live]
  Config files, provider credentials, MCP servers, the shell parser, the sandbox and the tools.
  --live  also calls the model once and checks that local servers listen.
Exit status: 0 when nothing is broken, 1 when a line says ERROR, 2 on a usage error.`;

/**
 * Prints the report; exit 1 when something is broken (bad config, unknown model, with `--live`
 * a model call that failed), else 0.
 */
export async function doctorCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { flags: ["live"] });
  if (args.help) {
    process.stdout.write(`${DOCTOR_HELP}\n`);
    return 0;
  }
  if (args.positionals.length) throw new UsageError(`doctor takes no arguments (got "${args.positionals[0]}").`);
  const lines = await doctorReport(process.cwd());
  if (args.flags.has("live")) lines.push(...(await liveReport(loadConfig({ root: process.cwd() }).config)));
  process.stdout.write(`${lines.join("\n")}\n`);
  return lines.some((l) => l.startsWith("ERROR")) ? 1 : 0;
}

/** The doctor report as lines; `ERROR` lines make doctor fail. */
async function doctorReport(root: string): Promise<string[]> {
  const out: string[] = [`agent-lsp ${VERSION}`, `node ${process.version}`, `project: ${root}`, "", "Config files:"];
  const loaded = loadConfig({ root });
  for (const layer of loaded.layers) {
    out.push(`  ${layer.found ? "found  " : "missing"} ${layer.source}`);
    if (layer.found && hasKey(layer.values) && isReadableByOthers(layer.source)) {
      out.push(`  WARNING ${layer.source} holds an API key and is readable by other users: chmod 600 it, or use api_key_env.`);
    }
  }
  for (const e of loaded.errors) out.push(`  ERROR ${e}`);
  out.push("", "Providers:");
  for (const name of knownProviders(loaded.config)) {
    const status = credentialStatus(name, loaded.config);
    out.push(`  ${status.ok ? "ok     " : "missing"} ${name}: ${status.detail}`);
  }
  out.push("", `Model: ${loaded.config.model}`);
  try {
    const ref = parseModelRef(loaded.config.model, loaded.config);
    const status = credentialStatus(ref.provider, loaded.config);
    // A missing key is the normal state of a fresh install, not a broken one: warn, do not fail.
    if (!status.ok) out.push(`WARNING the configured model's provider "${ref.provider}" cannot be called yet: ${status.detail}`);
  } catch (err) {
    out.push(`ERROR ${(err as Error).message}`);
  }
  out.push("", "Commands:", ...(await shellParserReport()));
  out.push(...(await sandboxReport(loaded.config)));
  out.push("", "Outside tools:", ...outsideToolStatus(loaded.config).map((l) => `  ${l}`), `  ${imageToolStatus(loaded.config)}`);
  out.push("", "Language tools:", ...languageToolStatus().map((l) => `  ${l}`));
  const { runtime } = createHeadlessRuntime({ quiet: true, interactive: Boolean(process.stdin.isTTY) });
  try {
    out.push(...(await mcpSection(runtime)));
    out.push("", "Tools:");
    for (const c of runtime.registry.list()) out.push(`  ${c.name.padEnd(28)} ${c.policyClass}${c.hiddenFromAgent ? " (hidden)" : ""}`);
  } finally {
    await runtime.dispose();
  }
  return out;
}

/** The MCP servers, started as a session would start them, one line each (their tools are listed under Tools). */
async function mcpSection(runtime: Runtime): Promise<string[]> {
  if (!runtime.mcp.manager.configured()) return [];
  // No session is made (it would leave an empty conversation behind): the need is the CLI's own.
  await runtime.mcp.prepare(CLI_NEED, undefined, { signIn: false });
  const lines = runtime.mcp.manager.statuses().map((s) => (s.state === "misconfigured" ? `  ERROR ${statusLine(s)}` : `  ${statusLine(s)}`));
  return ["", "MCP servers:", ...lines, ...(await tokenStoreLines(runtime.mcp.manager))];
}

/**
 * Where sign-in tokens are kept, when a server signs in with OAuth; a keyring that cannot be
 * reached is said here once, with how to fix it (`mcp list` leaves that out of each server's line).
 */
async function tokenStoreLines(manager: Runtime["mcp"]["manager"]): Promise<string[]> {
  const oauth = manager.serverNames().find((name) => manager.connection(name)?.spec.oauthEnabled);
  if (!oauth) return [];
  const store = manager.auth.store();
  try {
    await store.load(oauth);
    return [`  sign-in tokens: kept in ${store.where}`];
  } catch (err) {
    return [`  WARNING sign-in tokens: ${(err as Error).message}`];
  }
}

/**
 * The language tools depend on the editor, which the command line has none of: say which
 * editors offer them (the ones that declare `experimental.agent.languageService`) and which not.
 */
function languageToolStatus(): string[] {
  const names = LANGUAGE_TOOLS.map((t) => t.tool.name).join(", ");
  return [
    `${"editor".padEnd(7)} ${names}: offered only when the editor serves agent/languageService (docs/tools.md)`,
    `${"".padEnd(7)} Neovim (the agent-lsp plugin): all of them, from Neovim's other language servers and vim.diagnostic`,
    `${"".padEnd(7)} Emacs (the agent-lsp package): all of them, from the file's eglot server and flymake`,
    `${"".padEnd(7)} Helix and plain LSP clients: none (they do not declare the capability)`,
  ];
}

/** Whether generate_image is offered, and what to set when it is not. */
function imageToolStatus(config: Parameters<typeof createImageGenerator>[0]): string {
  if (!config.images.model) return `${"off".padEnd(7)} generate_image: set [images] model (e.g. "openai/gpt-image-1") to offer it`;
  try {
    return `${"ok".padEnd(7)} generate_image: ${createImageGenerator(config).model}`;
  } catch (err) {
    return `${"missing".padEnd(7)} generate_image: ${(err as Error).message}`;
  }
}

function hasKey(values: Record<string, unknown>): boolean {
  const providers = (values.providers ?? {}) as Record<string, { api_key?: string }>;
  return Object.values(providers).some((p) => typeof p?.api_key === "string");
}

function isReadableByOthers(file: string): boolean {
  try {
    return (statSync(file).mode & 0o044) !== 0;
  } catch {
    return false;
  }
}
