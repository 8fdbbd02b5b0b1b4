/**
 * model_routing_config: reads or changes which models the session uses: its own, and per purpose
 * the safety check of `auto` mode, compaction summaries and
 * subagents (skill sub-turns and `agent`). Only
 * models of the providers that can be called are accepted. The model may not pick the model
 * that judges its own actions in `auto` mode: that change is refused there (the user makes it
 * with `/model safety_check NAME`, or approves it in `ask` mode).
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool, ToolError } from "../define-tool.js";
import type { ToolServices } from "../types.js";

/** What a route is for; "session" is the session's own model. */
export const MODEL_PURPOSES = ["session", "safety_check", "compaction", "subagent"] as const;
export type RoutePurpose = (typeof MODEL_PURPOSES)[number];

/** The session's model routing, as the agent keeps it. */
export interface ModelRouting {
  /** Every purpose's model now in force, and where it comes from. */
  describe(sessionId: string): string;
  /** Sets (or, with undefined, returns to the configured default) one purpose's model; throws naming a bad value. */
  set(sessionId: string, purpose: RoutePurpose, model: string | undefined): void;
  /** The session's safety mode. */
  mode(sessionId: string): string;
}

export const MODEL_ROUTING_SERVICE = "modelRouting";

/** The model_routing_config tool. */
export const modelRoutingConfigTool = defineTool({
  name: "model_routing_config",
  description:
    "Read or change the session's model routing: the session's own model, and the models used for the auto-mode safety check, compaction summaries and subagents (skill sub-turns, agent). " +
    'Without model, answers the current routing and the models that can be chosen. model "default" returns a purpose to the configured default. Models are written NAME/model-id. ' +
    "A change of the session's model takes effect from the next turn.",
  input: lazySchema(() => z.object({
    purpose: z.enum(MODEL_PURPOSES).optional().describe('What to change: "session" (default), "safety_check", "compaction" or "subagent".'),
    model: z.string().min(1).optional().describe('The model, as NAME/model-id, or "default". Omit to only read the routing.'),
  })),
  policyClass: "read_write",
  isMutating: true,
  callKind: "other",
  category: "config",
  help: {
    whenToUse: "When the user asks which model does what, or to use another model for this session or its subagents (a cheaper model for compaction summaries, a stronger one for the safety check...).",
    examples: ["{}", '{"model": "anthropic/claude-opus-4-1"}', '{"purpose": "subagent", "model": "anthropic/claude-haiku-4-5"}', '{"purpose": "compaction", "model": "default"}'],
    failureModes: [
      "A model of an unknown provider, of a provider without its key, or missing from the provider's models list is refused, naming it.",
      "In auto mode the safety_check route cannot be changed by the model.",
    ],
  },
  title: (i) => (i.model ? `Route ${i.purpose ?? "session"} to ${i.model}` : "Read the model routing"),
  async execute(i, ctx) {
    const routing = routingFrom(ctx.services);
    if (i.model) {
      const purpose = i.purpose ?? "session";
      if (purpose === "safety_check" && routing.mode(ctx.sessionId) === "auto") {
        throw new ToolError("Not changed: in auto mode the model may not choose the model of its own safety check. The user can change it with /model safety_check NAME/model-id.");
      }
      try {
        routing.set(ctx.sessionId, purpose, i.model === "default" ? undefined : i.model);
      } catch (err) {
        throw new ToolError(`Not changed: ${(err as Error).message}`);
      }
    }
    return routing.describe(ctx.sessionId);
  },
});

function routingFrom(services: ToolServices): ModelRouting {
  const routing = services[MODEL_ROUTING_SERVICE] as ModelRouting | undefined;
  if (!routing) throw new ToolError("Model routing is not available in this server.");
  return routing;
}
