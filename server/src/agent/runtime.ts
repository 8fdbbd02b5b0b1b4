/**
 * The composition root shared by every front end: registry, gate, services, slash commands and
 * the Agent, built around an Editor and a project root.
 */
import type { Config } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import { createPolicyGate } from "../policy/gate.js";
import type { ToolGate } from "../policy/types.js";
import { ToolRegistry } from "../tools/registry.js";
import { describeShutdownStop } from "../exec/format.js";
import { FileLogger, type Logger } from "../util/log.js";
import { cleanupTempFiles } from "../workspace/journal.js";
import { SessionEvents } from "../editor/session-events.js";
import { registerBuiltinTools } from "./builtins.js";
import type { ToolServices } from "../tools/types.js";
import { Agent } from "./agent.js";
import { addCoreCommands } from "./core-commands.js";
import { SlashCommands } from "./slash-commands.js";

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
  /** Stops what the runtime started (turns, processes) and closes logs. */
  dispose(): Promise<void>;
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
  const registry = new ToolRegistry();
  const services: ToolServices = {};
  const commands = new SlashCommands();
  const events = new SessionEvents();
  const builtins = registerBuiltinTools(registry, services, commands, options.config);
  // The gate's classifier calls the session's model through the agent, built just below.
  let agent: Agent | undefined;
  const gate =
    options.gate ??
    createPolicyGate({
      editor: options.editor,
      events,
      config: options.config,
      complete: (request, signal) => {
        if (!agent) throw new Error("The agent is not running.");
        return agent.complete(request.sessionId, request, signal);
      },
      history: (sessionId) => agent?.all().find((s) => s.id === sessionId)?.history ?? [],
    });
  agent = new Agent({
    editor: options.editor,
    events,
    registry,
    gate,
    services,
    commands,
    config: options.config,
    defaultRoot: options.root,
    ...(options.createProvider ? { createProvider: options.createProvider } : {}),
  });
  addCoreCommands(commands, agent, registry);
  // Temp files a crashed server left mid-write (journalled) go at start, not at the first edit.
  const logger = options.logger ?? new FileLogger();
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
    async dispose() {
      await agent.shutdown();
      const line = describeShutdownStop(await builtins.dispose());
      if (line) logger.info(line);
    },
  };
}
