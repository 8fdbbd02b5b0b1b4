/**
 * What a model request carries besides the history: the system prompt and the tools offered in
 * the session's mode. One place, so the turn, `/compact` and `/context` see the same request.
 */
import type { Config } from "../../config/schema.js";
import type { ToolGate } from "../../policy/types.js";
import type { ProviderType } from "../../providers/provider.js";
import type { ToolRegistry } from "../../tools/registry.js";
import { advertisedTools, deferredToolList } from "./deferred-advertising.js";
import { prepareTools, type PreparedTools } from "./native-tools.js";
import type { Session } from "../session.js";
import { buildSystemPrompt } from "../system-prompt.js";
import { offeredTools, type ToolRunnerDeps } from "./tool-runner.js";
import { describedFor } from "../../tools/profiles.js";

/** The system prompt and tools of the session's next request. */
export interface RequestFrame {
  system: string;
  tools: PreparedTools;
}

/** Builds the frame for `session` on a provider speaking `providerType`. */
export function requestFrame(
  session: Session,
  deps: { registry: ToolRegistry; gate: ToolGate; config: Config; profile?: ToolRunnerDeps["profile"] },
  providerType: ProviderType,
): RequestFrame {
  // The tools of the session's profile, less those it is never offered (a subagent's delegation...).
  const offered = offeredTools(session, deps);
  const tools = prepareTools(providerType, describedFor(deps.profile, advertisedTools(offered, session)), deps.config, session);
  const names = new Set(offered.map((c) => c.name));
  return { system: buildSystemPrompt(session, deferredToolList(offered, session, deps.config.mcp.discovery), deps.config, names), tools };
}
