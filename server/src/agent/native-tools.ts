/**
 * Provider-native tools: which of the provider's own tool definitions the model gets in place of
 * ours, and the rewrite of each native call onto the tool it stands for, before anything runs.
 */
import type { Config } from "../config/schema.js";
import type { AssistantBlock, ToolDefinition } from "../providers/messages.js";
import type { NativeToolSpec, ProviderType } from "../providers/provider.js";
import type { Capability } from "../tools/types.js";
import type { ModelResponse } from "./provider-call.js";
import type { Session } from "./session.js";

/** The tools of one request. */
export interface PreparedTools {
  definitions: ToolDefinition[];
  native: NativeToolSpec[];
}

/** Our definitions for the offered tools, with native stand-ins where the provider has them. */
export function prepareTools(
  _providerType: ProviderType,
  offered: Capability[],
  _config: Config,
  _session: Session,
): PreparedTools {
  const definitions = offered.map((c) => ({ name: c.name, description: c.description, inputSchema: c.inputSchema }));
  return { definitions, native: [] };
}

/** Rewrites native calls onto our tools (a no-op for ordinary calls). */
export function rewriteNativeCalls<T extends AssistantBlock>(blocks: T[], _tools: PreparedTools): T[] {
  return blocks;
}

/** True when a failed call looks like the provider refusing its native tool definitions. */
export function isNativeToolRejection(response: ModelResponse): boolean {
  return response.errorStatus === 400 && /tool/i.test(response.error ?? "");
}
