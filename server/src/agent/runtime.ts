/**
 * The composition root shared by every front end: registry, gate, services, slash commands and
 * the Agent, built around an Editor and a project root.
 */
import type { Config } from "../config/schema.js";
import type { Editor } from "../editor/editor.js";
import { allowAllGate, type ToolGate } from "../policy/types.js";
import { ToolRegistry } from "../tools/registry.js";
import { registerBuiltinTools } from "./builtins.js";
import type { ToolServices } from "../tools/types.js";
import { Agent } from "./agent.js";
import { addCoreCommands } from "./core-commands.js";
import { SlashCommands } from "./slash-commands.js";

/** Everything a front end drives. */
export interface Runtime {
  agent: Agent;
  registry: ToolRegistry;
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
}): Runtime {
  const registry = new ToolRegistry();
  const services: ToolServices = {};
  const commands = new SlashCommands();
  const builtins = registerBuiltinTools(registry, services, commands, options.config);
  const agent = new Agent({
    editor: options.editor,
    registry,
    gate: options.gate ?? allowAllGate,
    services,
    commands,
    config: options.config,
    defaultRoot: options.root,
    ...(options.createProvider ? { createProvider: options.createProvider } : {}),
  });
  addCoreCommands(commands, agent, registry);
  return {
    agent,
    registry,
    services,
    commands,
    async dispose() {
      await agent.shutdown();
      await builtins.dispose();
    },
  };
}
