/**
 * Deferred tools: capabilities (MCP tools, by default) kept out of each request until the model
 * found and activated them, so hundreds of schemas do not flood every call. Which ones a session
 * advertises is the agent's to keep (it survives agent/loadSession); tools reach it through this
 * service.
 */
import type { ToolDescriptor } from "../../vocabulary/policy.js";
import type { ToolContext } from "../types.js";
import { ToolError } from "../define-tool.js";

/** The key of the service in `ToolContext.services`. */
export const DEFERRED_TOOLS_SERVICE = "deferredTools";

/** A session's activated deferred tools. */
export interface DeferredTools {
  /** Whether the session advertises `name` directly. */
  isActive(sessionId: string, name: string): boolean;
  /** Advertises `names` directly from the session's next model call on, for the rest of the session. */
  activate(sessionId: string, names: readonly string[]): void;
}

/** Whether a capability waits behind discovery until activated. */
export function isDeferred(capability: ToolDescriptor): boolean {
  return capability.metadata.deferred === true;
}

/** The service, or a tool error when the runtime has none. */
export function requireDeferredTools(ctx: ToolContext): DeferredTools {
  const service = ctx.services[DEFERRED_TOOLS_SERVICE] as DeferredTools | undefined;
  if (!service) throw new ToolError("Deferred tools are not available in this runtime.");
  return service;
}
