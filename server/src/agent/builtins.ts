/**
 * Registers every built-in tool and the services and slash commands they bring.
 */
import type { Config } from "../config/schema.js";
import { PROCESSES_SERVICE, ProcessManager, type ProcessManagerOptions } from "../exec/processes.js";
import type { StopReport } from "../exec/stop-tree.js";
import { providerKeyEnvNames } from "../providers/registry.js";
import { sandboxSettings } from "./sandbox-settings.js";
import { commandTools } from "../tools/commands/command-tools.js";
import { fileTools } from "../tools/files/file-tools.js";
import { longWorkTools } from "../tools/session/long-work-tools.js";
import { knowledgeTools } from "../tools/knowledge/knowledge-tools.js";
import { registerOutsideTools } from "../tools/outside/outside-tools.js";
import { generateImageTool, IMAGE_SERVICE } from "../tools/outside/generate-image.js";
import { createImageGenerator } from "../providers/image-generation.js";
import { policyTools } from "../tools/session/policy-tools.js";
import { contextTools } from "../tools/session/context-tools.js";
import type { ToolRegistry } from "../tools/registry.js";
import { CONFIG_SERVICE } from "../tools/tool-config.js";
import type { ToolServices } from "../tools/types.js";
import { checkpointsCommand, restoreCommand, undoCommand } from "./commands/checkpoint-commands.js";
import { addProcessCommands } from "./commands/process-commands.js";
import type { SlashCommands } from "./commands/slash-commands.js";

/** What the built-ins started and must stop. */
export interface Builtins {
  /** The processes the agent started (stopped by dispose, and by the shutdown hooks). */
  processes: ProcessManager;
  /** Stops every process the agent started; says what that ended. */
  dispose(): Promise<StopReport>;
}

/** What the process manager takes from the config (at start and at each reload). */
export function processOptions(config: Config): ProcessManagerOptions {
  return {
    envDeny: config.exec.env_deny,
    secretEnvNames: providerKeyEnvNames(config),
    backgroundLogMaxBytes: Math.round(config.exec.background_log_max_mb * 1024 * 1024),
    sandbox: sandboxSettings(config),
  };
}

/** Registers the built-in tools into `registry`. */
export function registerBuiltinTools(
  registry: ToolRegistry,
  services: ToolServices,
  commands: SlashCommands,
  config: () => Config,
): Builtins {
  for (const tool of [...fileTools, ...commandTools, ...policyTools, ...contextTools, ...longWorkTools, ...knowledgeTools]) registry.register(tool);
  services[CONFIG_SERVICE] = config;
  const outside = registerOutsideTools(registry, services, config);
  registerImageTool(registry, services, config());
  const processes = new ProcessManager(processOptions(config()));
  services[PROCESSES_SERVICE] = processes;
  addProcessCommands(commands, processes);
  addCheckpointCommands(commands);
  return {
    processes,
    async dispose() {
      await outside.dispose();
      return processes.stopAll();
    },
  };
}


/**
 * generate_image, when `[images] model` names a model that can be called (its provider's key is
 * there). Otherwise the tool is not offered; `agent-lsp doctor` says why.
 */
function registerImageTool(registry: ToolRegistry, services: ToolServices, config: Config): void {
  if (!config.images.model) return;
  try {
    services[IMAGE_SERVICE] = createImageGenerator(config);
  } catch {
    return; // reported by doctor (imageToolStatus), which builds the same generator
  }
  registry.register(generateImageTool);
}

function addCheckpointCommands(commands: SlashCommands): void {
  commands.add({
    name: "undo",
    usage: "undo",
    summary: "Revert the agent's last change set in this session.",
    run: (args, s) => undoCommand(args, { sessionId: s.id, workspace: s.workspace }),
  });
  commands.add({
    name: "checkpoints",
    usage: "checkpoints",
    summary: "List this session's checkpoints.",
    run: (args, s) => checkpointsCommand(args, { sessionId: s.id, workspace: s.workspace }),
  });
  commands.add({
    name: "restore",
    usage: "restore <id>",
    summary: "Return every file the agent changed since checkpoint <id> to its state then.",
    run: (args, s) => restoreCommand(args, { sessionId: s.id, workspace: s.workspace }),
  });
}
