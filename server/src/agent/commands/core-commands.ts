/** The slash commands that belong to the agent itself: /help, /model, /mode, /usage, /tools. */
import { SAFETY_MODES, type SafetyMode } from "../../config/schema.js";
import type { ToolRegistry } from "../../tools/registry.js";
import type { Agent } from "../agent.js";
import { modelCommand } from "./model-command.js";
import type { SlashCommands } from "./slash-commands.js";

/** Adds the agent's own commands to the table. */
export function addCoreCommands(commands: SlashCommands, agent: Agent, registry: ToolRegistry): void {
  commands.add({ name: "help", usage: "help", summary: "List the slash commands.", run: async (_args, session) => commands.help(session) });
  commands.add(modelCommand(agent));
  commands.add({
    name: "mode",
    usage: "mode [mode]",
    summary: `Show or change the safety mode (${SAFETY_MODES.join(", ")}).`,
    run: async (args, session) => {
      if (!args[0]) return `Mode: ${session.mode}`;
      if (!SAFETY_MODES.includes(args[0] as SafetyMode)) throw new Error(`Unknown mode "${args[0]}"; one of ${SAFETY_MODES.join(", ")}.`);
      agent.setMode(session.id, args[0] as SafetyMode);
      return `Mode set to ${args[0]}.`;
    },
  });
  commands.add({
    name: "usage",
    usage: "usage",
    summary: "Tokens used and estimated cost of this session.",
    run: async (_args, session) => {
      const u = session.usage;
      const cost = session.cost ? `, about $${session.cost.toFixed(4)}` : "";
      return `Input ${u.inputTokens} tokens (${u.cacheReadTokens} cached), output ${u.outputTokens} tokens${cost}.`;
    },
  });
  commands.add({
    name: "tools",
    usage: "tools",
    summary: "List the registered tools and their policy classes.",
    run: async () =>
      registry
        .list()
        .map((c) => `${c.name} (${c.policyClass}${c.hiddenFromAgent ? ", hidden" : ""})`)
        .join("\n"),
  });
}
