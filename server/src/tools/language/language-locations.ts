/**
 * Locations the editor's language servers answer with, made compact for the model: one
 * `path:line:column: text of the line` per place (1-based, as read_file numbers lines), sorted by
 * file and position, duplicates (several servers finding the same place) merged, capped.
 * Line texts are read only inside the project (the buffer when open); a place outside it shows
 * its path alone.
 */
import path from "node:path";
import { uriToPath } from "../../workspace/paths.js";
import { linesOf } from "./language-support.js";
import type { ToolContext } from "../types.js";

/** A place in a file (LSP: 0-based). */
export interface Place {
  uri: string;
  line: number;
  character: number;
}

/** Most places listed in one result. */
export const MAX_PLACES = 200;
/** Longest line text quoted. */
const MAX_LINE_TEXT = 200;

type Range = { start: { line: number; character: number } };

/** The places of a Location, Location[], LocationLink[] or null answer. */
export function placesOf(result: unknown): Place[] {
  const items = Array.isArray(result) ? result : result ? [result] : [];
  const places: Place[] = [];
  for (const item of items as Record<string, unknown>[]) {
    const uri = (item?.uri ?? item?.targetUri) as unknown;
    const range = (item?.targetSelectionRange ?? item?.range ?? item?.targetRange) as Range | undefined;
    if (typeof uri !== "string" || typeof range?.start?.line !== "number") continue;
    places.push({ uri, line: range.start.line, character: range.start.character ?? 0 });
  }
  return places;
}

/** A file's name as the model sees it: relative to the root inside it, absolute outside. */
export function displayPath(root: string, uri: string): string {
  const abs = uriToPath(uri);
  if (!abs) return uri;
  const rel = path.relative(root, abs);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : abs;
}

/** Sorted, merged, capped lines of places, with a count line first. */
export async function formatPlaces(ctx: ToolContext, places: Place[], noun: string): Promise<string> {
  const root = ctx.workspace.root;
  const keyed = new Map<string, Place & { shown: string }>();
  for (const p of places) {
    const shown = displayPath(root, p.uri);
    keyed.set(`${shown}\0${p.line}\0${p.character}`, { ...p, shown });
  }
  const sorted = [...keyed.values()].sort((a, b) => a.shown.localeCompare(b.shown) || a.line - b.line || a.character - b.character);
  const kept = sorted.slice(0, MAX_PLACES);
  const texts = await lineTexts(ctx, kept);
  const lines = kept.map((p) => {
    const text = texts.get(p.uri)?.[p.line]?.trim();
    const where = `${p.shown}:${p.line + 1}:${p.character + 1}`;
    return text ? `${where}: ${text.length > MAX_LINE_TEXT ? `${text.slice(0, MAX_LINE_TEXT)}...` : text}` : where;
  });
  const head = `${sorted.length} ${noun}${sorted.length === 1 ? "" : "s"}${sorted.length > kept.length ? ` (the first ${kept.length} shown)` : ""}:`;
  return [head, ...lines].join("\n");
}

/** The lines of each file inside the project that a place is in (buffer text when open). */
async function lineTexts(ctx: ToolContext, places: Place[]): Promise<Map<string, string[]>> {
  const texts = new Map<string, string[]>();
  for (const uri of new Set(places.map((p) => p.uri))) {
    const abs = uriToPath(uri);
    if (!abs) continue;
    try {
      const resolved = await ctx.workspace.resolve(abs);
      if (resolved.external) continue;
      const read = await ctx.workspace.readTextIfExists(resolved);
      if (read && !read.binary) texts.set(uri, linesOf(read.text));
    } catch {
      // A place whose file cannot be read still shows its path:line:column.
    }
  }
  return texts;
}
