/**
 * The composition root shared by every front end: registry, gate, services, slash commands and
 * the Agent, built around an Editor and a project root.
 */
import type { Config } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import { withCleanPrompts } from "../editor/prompt-text.js";
import { createPolicyGate, PolicyGate } from "../policy/gate.js";
import { ApprovalBook } from "../policy/rule-book.js";
import { SkillApproval } from "../policy/skill-approval.js";
import { SKILL_APPROVAL_SERVICE, type SkillApprover } from "../tools/knowledge/skill-services.js";
import { userConfigDir, userStateDir, homeOf } from "../config/user-dirs.js";
import { mergeStopReports, type StopReport } from "../exec/stop-tree.js";
import type { ToolGate } from "../policy/types.js";
import { ToolRegistry } from "../tools/registry.js";
import { describeShutdownStop } from "../exec/format.js";
import { FileLogger, type Logger } from "../util/log.js";
import { cleanupTempFiles } from "../workspace/journal.js";
import { SessionEvents } from "../editor/session-events.js";
import { registerBuiltinTools } from "./builtins.js";
import { registerLanguageTools } from "../tools/language/language-tools.js";
import type { ToolServices } from "../tools/types.js";
import { Agent } from "./agent.js";
import { addCoreCommands } from "./commands/core-commands.js";
import { addContextCommands } from "./commands/context-commands.js";
import { addBuiltinContextSections, ContextReport } from "./compaction/context-report.js";
import { addKnowledgeCommands } from "./knowledge/knowledge-commands.js";
import { rulesContextSection } from "./knowledge/knowledge.js";
import { McpWiring } from "./mcp/mcp-wiring.js";
import { AgentSessionTools } from "./delegation/session-tools.js";
import { SESSION_TOOLS_SERVICE } from "../tools/session/session-tools.js";
import { SlashCommands } from "./commands/slash-commands.js";

/** Everything a front end drives. */
export interface Runtime {
  agent: Agent;
  /** Every session's events; front ends subscribe to render them. */
  events: SessionEvents;
  registry: ToolRegistry;
  /** The policy gate every tool call passes. */
  gate: ToolGate;
  services: ToolServices;
  commands: SlashCommands;
  /** The sections of `/context`; parts of the server add theirs. */
  contextReport: ContextReport;
  /** The MCP servers and what they bring (tools, resources, prompt commands). */
  mcp: McpWiring;
  /** Stops what the runtime started (turns, processes, MCP servers) and closes logs. */
  dispose(): Promise<void>;
  /** Stops every process the runtime started, synchronously: for exit handlers and signals. */
  stopAllSync(): StopReport;
}

/** Builds a runtime. */
export function createRuntime(options: {
  editor: Editor;
  root: string;
  config: () => Config;
  gate?: ToolGate;
  createProvider?: ConstructorParameters<typeof Agent>[0]["createProvider"];
  /** Where start-up housekeeping reports; stderr when not given. */
  logger?: Logger;
}): Runtime {
  // Every prompt any part of the core asks is cleaned on its way out (editor/prompt-text.ts).
  const editor = withCleanPrompts(options.editor);
  const registry = new ToolRegistry();
  const services: ToolServices = {};
  const commands = new SlashCommands();
  const events = new SessionEvents();
  const builtins = registerBuiltinTools(registry, services, commands, options.config);
  // Only what the editor's own language servers can answer (its declared capability).
  registerLanguageTools(registry, editor);
  // The gate's classifier calls the session's model through the agent, built just below.
  let agent: Agent | undefined;
  const gate =
    options.gate ??
    createPolicyGate({
      editor,
      events,
      config: options.config,
      complete: (request, signal) => {
        if (!agent) throw new Error("The agent is not running.");
        // A safety-check model chosen for the session (model_routing_config, /model) wins over the config's.
        const routed = agent.all().find((s) => s.id === request.sessionId)?.modelRoutes.safety_check;
        return agent.complete(request.sessionId, routed ? { ...request, model: routed } : request, signal);
      },
      history: (sessionId) => agent?.all().find((s) => s.id === sessionId)?.history ?? [],
    });
  const logger = options.logger ?? new FileLogger();
  const book = gate instanceof PolicyGate ? gate.book : userApprovalBook(editor);
  services[SKILL_APPROVAL_SERVICE] = new SkillApproval(editor, book) satisfies SkillApprover;
  const mcp = new McpWiring({
    editor,
    events,
    registry,
    commands,
    services,
    config: options.config,
    root: options.root,
    logger,
    book,
    // MCP servers with `sandbox = true` start in the commands' sandbox.
    sandbox: builtins.processes.sandbox,
    agent: () => agent!,
  });
  agent = new Agent({
    editor,
    events,
    registry,
    gate,
    services,
    commands,
    config: options.config,
    defaultRoot: options.root,
    ...(options.createProvider ? { createProvider: options.createProvider } : {}),
    prepareTools: (sessionId, signal) => mcp.prepare(sessionId, signal),
  });
  // The checklist, subagents and spawned tasks reach their sessions through this.
  services[SESSION_TOOLS_SERVICE] = new AgentSessionTools(agent);
  addCoreCommands(commands, agent, registry);
  const contextReport = new ContextReport();
  addBuiltinContextSections(contextReport);
  contextReport.add("rules", ({ session, config }) => rulesContextSection(session, config));
  addContextCommands(commands, agent, contextReport);
  addKnowledgeCommands(commands, agent, events, services);
  // Temp files a crashed server left mid-write (journalled) go at start, not at the first edit.
  cleanupTempFiles(options.root).then(
    (removed) => {
      if (removed.length) logger.info(`removed ${removed.length} temp file(s) a stopped server left: ${removed.join(", ")}`);
    },
    (err: Error) => logger.warn(`could not clean up temp files left by a stopped server: ${err.message}`),
  );
  return {
    agent,
    events,
    registry,
    gate,
    services,
    commands,
    contextReport,
    mcp,
    async dispose() {
      await agent.shutdown();
      const [processes, servers] = await Promise.all([builtins.dispose(), mcp.dispose()]);
      const line = describeShutdownStop(mergeStopReports([processes, ...servers]));
      if (line) logger.info(line);
    },
    stopAllSync() {
      return mergeStopReports([builtins.processes.stopAll(), mcp.stopAllSync()]);
    },
  };
}

/** The approvals book when the runtime was given a gate of its own (tests): the user's folders. */
function userApprovalBook(editor: Editor): ApprovalBook {
  return new ApprovalBook(
    (message) => editor.showMessage("warning", `agent-lsp approvals: ${message}`),
    () => ({ stateDir: userStateDir(), configDir: userConfigDir(), home: homeOf() }),
  );
}
