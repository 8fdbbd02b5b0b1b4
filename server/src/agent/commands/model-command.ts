/**
 * `/model`: the user's side of model routing. `/model` shows the routing and the models that can
 * be chosen; `/model NAME/model-id` switches the session's model; `/model PURPOSE NAME/model-id`
 * (safety_check, compaction, subagent) sets a purpose's model, `default` returns it to the config.
 */
import { MODEL_PURPOSES, type RoutePurpose } from "../../tools/knowledge/model-routing-config.js";
import type { Agent } from "../agent.js";
import { describeRouting, setRoute } from "../model-routing.js";
import type { SlashCommand } from "./slash-commands.js";

/** The /model command. */
export function modelCommand(agent: Agent): SlashCommand {
  return {
    name: "model",
    usage: "model [NAME/model-id]",
    summary: `Show or change the session's model; \`/model PURPOSE NAME/model-id\` routes ${MODEL_PURPOSES.filter((p) => p !== "session").join(", ")} ("default" resets).`,
    run: async (args, session) => {
      if (!args[0]) return describeRouting(session, agent.deps.config());
      const purposeFirst = args.length > 1 && MODEL_PURPOSES.includes(args[0] as RoutePurpose);
      const purpose = purposeFirst ? (args[0] as RoutePurpose) : "session";
      const model = purposeFirst ? args[1]! : args[0];
      setRoute(agent, session, purpose, model === "default" ? undefined : model);
      if (purpose === "session") return `Model set to ${model}.`;
      return model === "default" ? `${purpose} uses its default model again.` : `${purpose} now uses ${model}.`;
    },
  };
}
