/**
 * What an ACP session offers the client to switch: our five safety modes as ACP modes, the model
 * as a `select` config option, and the slash commands as available commands.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { Session } from "../agent/session.js";
import type { SlashCommands } from "../agent/commands/slash-commands.js";
import { SAFETY_MODES, type Config, type SafetyMode } from "../config/schema.js";

const MODE_TEXT: Record<SafetyMode, { name: string; description: string }> = {
  read_only: { name: "Read only", description: "Reads and searches; nothing is changed or run." },
  plan: { name: "Plan", description: "Investigates read-only and proposes a plan." },
  ask: { name: "Ask", description: "Asks before every change, command or network call." },
  auto: { name: "Auto", description: "A safety check decides; asks when unsure." },
  full_access: { name: "Full access", description: "Runs everything without asking." },
};

/** The mode state of a session in `mode`. */
export function modeState(mode: SafetyMode): acp.SessionModeState {
  return { currentModeId: mode, availableModes: SAFETY_MODES.map((id) => ({ id, ...MODE_TEXT[id] })) };
}

/** The safety mode an ACP mode id names; InvalidParams for any other id. */
export function safetyMode(modeId: string): SafetyMode {
  const mode = SAFETY_MODES.find((m) => m === modeId);
  if (!mode) throw new AgentRequestError(ErrorCodes.InvalidParams, `modeId: "${modeId}" is not a mode; the modes are ${SAFETY_MODES.join(", ")}.`);
  return mode;
}

/** The config option id of the model. */
export const MODEL_OPTION = "model";
/** The config option id of the safety mode. */
export const MODE_OPTION = "mode";

/**
 * The session's options: the safety mode (category `mode`: clients such as CodeCompanion and
 * avante read modes only from here once config options exist) and the model.
 */
export function configOptions(current: { model: string; mode: SafetyMode }, config: Config): acp.SessionConfigOption[] {
  return [modeOption(current.mode), modelOption(current.model, config)];
}

function modeOption(mode: SafetyMode): acp.SessionConfigOption {
  return {
    type: "select",
    id: MODE_OPTION,
    name: "Mode",
    description: "How much the agent may do without asking (docs/safety.md).",
    category: "mode",
    currentValue: mode,
    options: SAFETY_MODES.map((id) => ({ value: id, name: MODE_TEXT[id].name, description: MODE_TEXT[id].description })),
  };
}

/** The model as a select: the session's, the config's default and each provider table's model. */
function modelOption(current: string, config: Config): acp.SessionConfigOption {
  const models = new Set([current, config.model]);
  for (const [name, table] of Object.entries(config.providers)) {
    if (table.model) models.add(table.model.includes("/") ? table.model : `${name}/${table.model}`);
  }
  return {
    type: "select",
    id: MODEL_OPTION,
    name: "Model",
    category: "model",
    currentValue: current,
    options: [...models].map((value) => ({ value, name: value })),
  };
}

/** The slash commands as ACP available commands (sent as a prompt `/name args`). */
export function availableCommands(commands: SlashCommands, session?: Session): acp.AvailableCommand[] {
  return commands.list(session).map((c) => {
    const hint = c.usage.slice(c.name.length).trim();
    return { name: c.name, description: c.summary, ...(hint ? { input: { hint } } : {}) };
  });
}
