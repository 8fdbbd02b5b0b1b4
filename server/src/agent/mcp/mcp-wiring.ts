/**
 * MCP in the runtime: the McpManager service (started when a session first needs it), the
 * capabilities its servers' tools become, the bridge tools of deferred discovery and the
 * resource tools, the slash commands servers' prompts become, and what a session sees while its
 * servers start (`$/progress`) and whenever one changes (a `status` update).
 */
import path from "node:path";
import type { Config } from "../../config/schema.js";
import type { Sandbox } from "../../exec/sandbox/sandbox.js";
import type { Editor } from "../../editor/editor.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { StopReport } from "../../exec/stop-tree.js";
import { EraMemory } from "../../mcp/eras.js";
import { MCP_SERVICE, McpManager } from "../../mcp/manager.js";
import { describeStatus } from "../../mcp/status-text.js";
import { McpServerApproval } from "../../policy/mcp-server-approval.js";
import type { ApprovalBook } from "../../policy/rule-book.js";
import { DEFERRED_TOOLS_SERVICE, type DeferredTools } from "../../tools/mcp/deferred-tools.js";
import { listMcpResourcesTool } from "../../tools/mcp/list-mcp-resources.js";
import { mcpCapability, readCallFor } from "../../tools/mcp/mcp-tool.js";
import { mcpToolsTool } from "../../tools/mcp/mcp-tools.js";
import { readMcpResourceTool } from "../../tools/mcp/read-mcp-resource.js";
import type { ToolRegistry } from "../../tools/registry.js";
import { toolCallTool } from "../../tools/mcp/tool-call.js";
import { toolDescribeTool } from "../../tools/mcp/tool-describe.js";
import { toolSearchTool } from "../../tools/mcp/tool-search.js";
import type { Capability, ToolServices } from "../../tools/types.js";
import type { Logger } from "../../util/log.js";
import { userStateDir } from "../../util/user-dirs.js";
import type { Agent } from "../agent.js";
import { promptCommands } from "./mcp-prompt-commands.js";
import { mcpLoginCommand, signInFromEditor } from "./mcp-sign-in.js";
import type { SlashCommands } from "../commands/slash-commands.js";

/** What the wiring is built from. */
export interface McpWiringDeps {
  /** The sandbox of local servers that opt in (`[mcp_servers.NAME] sandbox = true`). */
  sandbox?: Sandbox;
  editor: Editor;
  events: SessionEvents;
  registry: ToolRegistry;
  commands: SlashCommands;
  services: ToolServices;
  config(): Config;
  root: string;
  logger: Logger;
  /** Where approvals of project-defined servers are kept (signed). */
  book: ApprovalBook;
  agent(): Agent;
}

const BRIDGES: Record<Config["mcp"]["discovery"], Capability[]> = {
  mcp_tools: [mcpToolsTool],
  tool_search: [toolSearchTool, toolDescribeTool, toolCallTool],
};
const RESOURCE_TOOLS = [listMcpResourcesTool, readMcpResourceTool];

/** MCP, wired into one runtime. */
export class McpWiring {
  readonly manager: McpManager;
  /** Sessions that needed the servers: they hear of every change. */
  private readonly sessions = new Set<string>();
  /** The last status text each session heard of each server (`session\nserver`). */
  private readonly reported = new Map<string, string>();
  private readonly commandsOf = new Map<string, string[]>();
  /**
   * Whether a server that needs a sign-in starts one through the editor. The terminal commands turn
   * it off: a one-shot run has no browser of its own, and one server's sign-in must not hold back
   * a call to another; such a server fails saying to run `agent-lsp mcp login NAME`.
   */
  signIns = true;

  constructor(private readonly deps: McpWiringDeps) {
    const approval = new McpServerApproval(deps.editor, deps.book);
    this.manager = new McpManager({
      config: deps.config,
      root: deps.root,
      logger: deps.logger,
      ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
      // Kept in the user's state folder: a server's protocol era is the same in every project.
      eras: new EraMemory(path.join(userStateDir(), "mcp-eras.json")),
      approve: (spec, need) =>
        approval.approve(
          { name: spec.name, launchLine: spec.launchLine, source: spec.projectSource!, launch: spec, ...(spec.replaces ? { replaces: spec.replaces } : {}) },
          { sessionId: need.sessionId, root: deps.root },
          need.signal ?? new AbortController().signal,
        ),
      // The first 401 of a server never signed in to: the sign-in runs through the session's editor.
      signIn: (spec, need) => signInFromEditor(signInDeps, spec, need.sessionId, need.signal),
    });
    const signInDeps = { editor: deps.editor, events: deps.events, manager: () => this.manager };
    deps.commands.add(mcpLoginCommand(signInDeps, (sessionId) => this.prepare(sessionId)));
    deps.services[MCP_SERVICE] = this.manager;
    deps.services[DEFERRED_TOOLS_SERVICE] = {
      isActive: (sessionId, name) => deps.agent().get(sessionId).activatedTools.has(name),
      activate: (sessionId, names) => deps.agent().get(sessionId).activate(names),
    } satisfies DeferredTools;
    this.manager.onChange((server) => this.changed(server));
    this.syncBridges();
  }

  /**
   * A session needs the servers (a turn, a command list, a prompt command): starts those not
   * running, with `$/progress` while they start; resolves when each is ready or has failed.
   */
  async prepare(sessionId: string, signal?: AbortSignal, options: { signIn?: boolean; only?: readonly string[] } = {}): Promise<void> {
    this.syncBridges();
    if (!this.manager.configured()) return;
    this.sessions.add(sessionId);
    const { only } = options;
    // Progress only when something starts: after the first turn there is usually nothing to show.
    const progress = this.manager.startable(sessionId, only).length ? this.deps.editor.progress("Starting MCP servers") : undefined;
    let settled = 0;
    const stopReporting = this.manager.onChange((server) => {
      const s = this.manager.status(server);
      if (s && s.state !== "starting") progress?.report(`${server}: ${s.state} (${++settled})`);
    });
    try {
      const signIn = options.signIn ?? this.signIns;
      const started = this.manager.ensureStarted({ sessionId, ...(signal ? { signal } : {}), ...(signIn ? {} : { signIn: false }), ...(only ? { only } : {}) });
      await (signal ? Promise.race([started, aborted(signal)]) : started);
    } finally {
      stopReporting();
      // A session that joins later hears how each server is, once.
      for (const name of this.manager.serverNames()) this.report(name);
      const statuses = this.manager.statuses();
      progress?.done(`${statuses.filter((s) => s.state === "ready").length} of ${statuses.length} MCP servers ready`);
    }
  }

  /**
   * What one call of `toolName` needs: its own server alone when it is an MCP server's tool (the
   * others are neither started nor waited for), no server for a tool of agent-lsp's own that does
   * not reach them (read_file), else every server (mcp_tools reaches any of them).
   */
  async prepareFor(sessionId: string, toolName: string, signal?: AbortSignal): Promise<void> {
    const own = this.deps.registry.find(toolName);
    if (own && own.kind !== "mcp" && ![...Object.values(BRIDGES).flat(), ...RESOURCE_TOOLS].includes(own)) return;
    const server = this.manager.configured() ? this.manager.serverOfTool(toolName) : undefined;
    return this.prepare(sessionId, signal, server ? { only: [server] } : {});
  }

  /** Stops every server. */
  dispose(): Promise<StopReport[]> {
    return this.manager.dispose();
  }

  /** Stops every server process, synchronously (exit handlers, signals). */
  stopAllSync(): StopReport {
    return this.manager.stopAllSync();
  }

  /** The bridge tools of the configured discovery mode, registered while any server is configured. */
  private syncBridges(): void {
    const config = this.deps.config();
    const wanted = this.manager.configured() ? BRIDGES[config.mcp.discovery] : [];
    for (const tool of Object.values(BRIDGES).flat()) {
      const registered = this.deps.registry.find(tool.name) === tool;
      if (wanted.includes(tool) && !registered) this.deps.registry.register(tool);
      if (!wanted.includes(tool) && registered) this.deps.registry.unregister(tool.name);
    }
  }

  private changed(server: string): void {
    this.syncTools(server);
    this.syncResourceTools();
    this.syncPromptCommands(server);
    this.report(server);
  }

  private syncTools(server: string): void {
    const { registry } = this.deps;
    registry.unregisterKind("mcp", { server });
    const readCall = readCallFor(this.deps.config().mcp.discovery);
    for (const entry of this.manager.toolsOf(server)) {
      if (registry.find(entry.name)) {
        this.deps.logger.warn(`mcp ${server}: a tool named ${entry.name} is already registered; ${entry.rawName} is left out`);
        continue;
      }
      registry.register(mcpCapability(entry, this.manager, readCall));
    }
  }

  /** list_mcp_resources and read_mcp_resource, while a resources-capable server is ready. */
  private syncResourceTools(): void {
    const wanted = this.manager.resourceServers().length > 0;
    for (const tool of RESOURCE_TOOLS) {
      const registered = this.deps.registry.find(tool.name) === tool;
      if (wanted && !registered) this.deps.registry.register(tool);
      if (!wanted && registered) this.deps.registry.unregister(tool.name);
    }
  }

  private syncPromptCommands(server: string): void {
    for (const name of this.commandsOf.get(server) ?? []) this.deps.commands.remove(name);
    const added = promptCommands(this.manager, server, this.deps.events, this.deps.agent);
    for (const command of added) this.deps.commands.add(command);
    this.commandsOf.set(server, added.map((c) => c.name));
  }

  /** A status update to every session that needed the servers, once per change of state. */
  private report(server: string): void {
    const status = this.manager.status(server);
    if (!status || status.state === "starting" || status.state === "stopped") return;
    // A server never signed in to starts its sign-in right away, which says so with the address
    // (where sign-ins are off, the failure itself says to run `agent-lsp mcp login`).
    if (this.signIns && status.state === "failed" && this.manager.connection(server)?.signInNeeded === "not_signed_in") return;
    // The name is a config key a repository may choose: quoted with escapes, it stays on one line.
    const text = `MCP server ${JSON.stringify(server)} ${describeStatus(status)}`;
    for (const sessionId of this.sessions) {
      const key = `${sessionId}\n${server}`;
      if (this.reported.get(key) === text) continue;
      this.reported.set(key, text);
      this.deps.events.emit(sessionId, { kind: "status", text });
    }
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}
