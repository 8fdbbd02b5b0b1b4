/**
 * The session's model routing: its own model, and per purpose (safety check, compaction,
 * subagents) a model chosen for this session, else the configured default. Shared by
 * model_routing_config (as a service), `/model` and `agent/setModel`.
 */
import type { Config } from "../config/schema.js";
import { checkModelChoice, modelChoices } from "../providers/model-choices.js";
import type { ModelRouting, RoutePurpose } from "../tools/knowledge/model-routing-config.js";
import type { Agent } from "./agent.js";
import type { ModelPurpose, Session } from "./session.js";

/** The routing service over an agent's sessions. */
export function modelRouting(agent: Agent): ModelRouting {
  return {
    describe: (id) => describeRouting(agent.get(id), agent.deps.config()),
    set: (id, purpose, model) => setRoute(agent, agent.get(id), purpose, model),
    mode: (id) => agent.get(id).mode,
  };
}

/** The model a purpose uses in `session`: its own route, else the config's, else the session's model. */
export function routedModel(session: Session, purpose: ModelPurpose, config: Config): string {
  const configured = purpose === "safety_check" ? config.policy.classifier_model : "";
  return session.modelRoutes[purpose] ?? (configured || session.model);
}

/** Changes one purpose's model (undefined: back to the default); throws an Error naming a bad value. */
export function setRoute(agent: Agent, session: Session, purpose: RoutePurpose, model: string | undefined): void {
  if (purpose === "session") {
    if (!model) throw new Error('The session\'s own model has no "default" to return to; name one.');
    agent.setModel(session.id, model);
    return;
  }
  if (model === undefined) delete session.modelRoutes[purpose];
  else {
    checkModelChoice(model, agent.deps.config());
    session.modelRoutes[purpose] = model;
  }
  // Logged, so a reloaded session routes as it did.
  session.log.settings({ routes: { [purpose]: model ?? null } });
}

/** The session's model, its routes and the choices, for `agent/listModels`. */
export function listModels(session: Session, config: Config): { model: string; routes: Record<ModelPurpose, string>; providers: ReturnType<typeof modelChoices> } {
  const routes = { safety_check: routedModel(session, "safety_check", config), compaction: routedModel(session, "compaction", config), subagent: routedModel(session, "subagent", config) };
  return { model: session.model, routes, providers: modelChoices(config) };
}

/** The routing in words, with the models that can be chosen. */
export function describeRouting(session: Session, config: Config): string {
  const line = (purpose: ModelPurpose, what: string) => `${what}: ${routedModel(session, purpose, config)}${session.modelRoutes[purpose] ? " (set for this session)" : " (default)"}`;
  const choices = modelChoices(config).map((p) => `  ${p.provider}: ${p.models.join(", ")}`);
  return [
    `Session model: ${session.model}`,
    line("safety_check", "Safety check (auto mode)"),
    line("compaction", "Compaction summaries"),
    line("subagent", "Subagents and skill sub-turns"),
    "Models that can be chosen:",
    ...(choices.length ? choices : ["  (no provider with a key has models to list; any NAME/model-id of a configured provider works)"]),
  ].join("\n");
}
