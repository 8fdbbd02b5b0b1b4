/**
 * Provider-safe names for what MCP servers offer: `mcp__<server>__<tool>` for tools and
 * `mcp__<server>__<prompt>` (lowercased) for prompt commands. Providers accept `[A-Za-z0-9_-]`
 * and at most 64 characters; servers send anything. Every other character becomes `_`, a name
 * too long is cut and given a hash of the raw name, and names that end up equal are told apart
 * by a hash of their raw names, so the same tools always get the same names.
 */
import { createHash } from "node:crypto";

/** The longest tool name providers accept. */
const MAX_TOOL_NAME = 64;

/** The prefix every MCP capability's name starts with. */
const MCP_PREFIX = "mcp__";

/** `text` with every character outside `[A-Za-z0-9_-]` replaced by `_` (never empty). */
function sanitizePart(text: string): string {
  const out = text.replace(/[^A-Za-z0-9_-]/g, "_");
  return out || "_";
}

/** Six hex characters that stand for `raw`. */
function shortHash(raw: string): string {
  return createHash("sha256").update(raw).digest("hex").slice(0, 6);
}

/** `base`, cut to fit `max` with room for `_<hash>` when it is too long. */
function fit(base: string, raw: string, max: number): string {
  if (base.length <= max) return base;
  return `${base.slice(0, max - 7)}_${shortHash(raw)}`;
}

/**
 * One name per raw name, in the input's order: `prefix` + sanitised raw name, unique and at most
 * `max` long. Of raw names that sanitise to the same name, the one that needed no change (else the
 * first in sorting order) keeps it; the others get `_<hash of their raw name>`.
 */
function uniqueNames(prefix: string, raws: readonly string[], max = MAX_TOOL_NAME, lower = false): string[] {
  const room = max - prefix.length;
  const wanted = raws.map((raw) => {
    const part = sanitizePart(lower ? raw.toLowerCase() : raw);
    return prefix + fit(part, raw, room);
  });
  const groups = new Map<string, number[]>();
  wanted.forEach((name, i) => groups.set(name, [...(groups.get(name) ?? []), i]));
  const out = [...wanted];
  for (const [name, indexes] of groups) {
    if (indexes.length < 2) continue;
    const keeper = indexes.find((i) => prefix + (lower ? raws[i]!.toLowerCase() : raws[i]) === name) ?? [...indexes].sort((a, b) => (raws[a]! < raws[b]! ? -1 : 1))[0]!;
    for (const i of indexes) {
      if (i === keeper) continue;
      const hash = shortHash(raws[i]!);
      out[i] = `${name.slice(0, max - 7)}_${hash}`;
    }
  }
  return out;
}

/** Each server's name part (`github`, `my_server`), unique across the servers, in the input's order. */
export function serverParts(servers: readonly string[]): string[] {
  // A server part leaves room for a tool part of at least 16 characters.
  return uniqueNames("", servers, MAX_TOOL_NAME - MCP_PREFIX.length - 2 - 16);
}

/** The capability names of one server's tools: `mcp__<serverPart>__<tool>`. */
export function toolNames(serverPart: string, rawTools: readonly string[]): string[] {
  return uniqueNames(`${MCP_PREFIX}${serverPart}__`, rawTools);
}

/** The slash-command names of one server's prompts: `mcp__<serverPart>__<prompt>`, lowercased. */
export function promptCommandNames(serverPart: string, rawPrompts: readonly string[]): string[] {
  return uniqueNames(`${MCP_PREFIX}${serverPart.toLowerCase()}__`, rawPrompts, MAX_TOOL_NAME, true);
}
