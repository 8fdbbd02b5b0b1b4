/**
 * The capability registry: every tool the model can call, built-in or from MCP, is one entry.
 * Trust and policy filters decide which subset each session sees (see docs/safety.md).
 */
import { admitsClass, type ListFilter, type ToolKind } from "../vocabulary/policy.js";
import type { Capability } from "./types.js";

/** The registry. Insertion order is the order tools are offered in. */
export class ToolRegistry {
  private readonly byName = new Map<string, Capability>();
  /** An older name of a tool, to the name it is registered under. */
  private readonly aliases = new Map<string, string>();

  /** Adds a capability; refuses a name (or alias) already taken. */
  register(capability: Capability): void {
    for (const name of [capability.name, ...(capability.aliases ?? [])]) {
      if (this.byName.has(name) || this.aliases.has(name)) throw new Error(`A tool named "${name}" is already registered.`);
    }
    this.byName.set(capability.name, capability);
    for (const alias of capability.aliases ?? []) this.aliases.set(alias, capability.name);
  }

  /** Removes one capability by name; true when it was there. */
  unregister(name: string): boolean {
    for (const alias of this.byName.get(name)?.aliases ?? []) this.aliases.delete(alias);
    return this.byName.delete(name);
  }

  /**
   * Removes every capability of `kind` whose metadata matches every key of `match`, as one step
   * (an MCP server that disconnects takes all its tools with it). Returns the names removed.
   */
  unregisterKind(kind: ToolKind, match: Record<string, unknown> = {}): string[] {
    const doomed = [...this.byName.values()].filter(
      (c) => c.kind === kind && Object.entries(match).every(([k, v]) => c.metadata[k] === v),
    );
    for (const c of doomed) this.unregister(c.name);
    return doomed.map((c) => c.name);
  }

  /** The capability called `name` (or by one of its older names), if registered. */
  find(name: string): Capability | undefined {
    return this.byName.get(name) ?? this.byName.get(this.aliases.get(name) ?? "");
  }

  /** Capabilities that pass `filter` (every one, hidden included, without a filter). */
  list(filter?: ListFilter): Capability[] {
    const all = [...this.byName.values()];
    if (!filter) return all;
    return all
      .filter((c) => !filter.kind || filter.kind === "all" || c.kind === filter.kind)
      .filter((c) => !filter.policy || admitsClass(filter.policy, c.policyClass))
      .filter((c) => !filter.allowedTools || filter.allowedTools.includes(c.name))
      .filter((c) => !filter.excludedNames?.includes(c.name))
      .filter((c) => !filter.excludedCategories?.includes(c.category))
      .filter((c) => filter.includeHidden || !c.hiddenFromAgent);
  }
}
