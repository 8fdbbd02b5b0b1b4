/**
 * What a model request carries besides the history: the system prompt and the tools offered in
 * the session's mode. One place, so the turn, `/compact` and `/context` see the same request.
 */
import type { Config } from "../config/schema.js";
import type { ToolGate } from "../policy/types.js";
import type { ProviderType } from "../providers/provider.js";
import type { ToolRegistry } from "../tools/registry.js";
import { advertisedTools, deferredToolList } from "./deferred-advertising.js";
import { prepareTools, type PreparedTools } from "./native-tools.js";
import type { Session } from "./session.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { toGateSession } from "./tool-runner.js";

/** The system prompt and tools of the session's next request. */
export interface RequestFrame {
  system: string;
  tools: PreparedTools;
}

/** Builds the frame for `session` on a provider speaking `providerType`. */
export function requestFrame(
  session: Session,
  deps: { registry: ToolRegistry; gate: ToolGate; config: Config },
  providerType: ProviderType,
): RequestFrame {
  const offered = deps.registry.list(deps.gate.filter(toGateSession(session)));
  const tools = prepareTools(providerType, advertisedTools(offered, session), deps.config, session);
  return { system: buildSystemPrompt(session, deferredToolList(offered, session, deps.config.mcp.discovery), deps.config), tools };
}
