/**
 * `/context`: what fills the session's context window. A small registry of contributors, each
 * adding one section (the window, the system prompt, tools, history, the last compaction, the
 * memory index...), so other parts of the server add theirs (rules, skills) without touching this.
 */
import type { Config } from "../../config/schema.js";
import { contextTokens, contextWindow, estimateMessages, estimateTokens, estimateTools } from "./context-size.js";
import { memoryIndexSection } from "../knowledge/memory-index.js";
import type { RequestFrame } from "../turn/request-frame.js";
import type { Session } from "../session.js";

/** What every contributor gets. */
export interface ContextFacts {
  session: Session;
  config: Config;
  frame: RequestFrame;
}

/** One section of the report: a title, its estimated tokens, and lines of detail. */
export interface ContextSection {
  title: string;
  tokens?: number;
  /** Already counted in another section (the memory index is part of the system prompt). */
  partOf?: string;
  lines?: string[];
}

/** Adds a section, or nothing (undefined) when it has nothing to say for this session. */
export type ContextContributor = (facts: ContextFacts) => ContextSection | undefined;

/** The contributors, in the order their sections are shown. */
export class ContextReport {
  private readonly contributors: { name: string; contribute: ContextContributor }[] = [];

  /** Adds (or replaces, by name) a contributor. */
  add(name: string, contribute: ContextContributor): void {
    const at = this.contributors.findIndex((c) => c.name === name);
    if (at >= 0) this.contributors[at] = { name, contribute };
    else this.contributors.push({ name, contribute });
  }

  /** The report as text. */
  render(facts: ContextFacts): string {
    const head = windowLine(facts);
    const sections = this.contributors.flatMap((c) => c.contribute(facts) ?? []);
    return [head, ...sections.map(formatSection)].join("\n");
  }
}

function windowLine({ session, config, frame }: ContextFacts): string {
  const window = contextWindow(session, config);
  const used = contextTokens(session, { system: frame.system, tools: frame.tools.definitions });
  const threshold = config.compaction.auto_threshold_percent;
  const auto = config.compaction.provider_native ? "automatic compaction: the provider's (provider_native)" : `automatic compaction at ${threshold}% (${fmt((window * threshold) / 100)})`;
  const counted = session.contextCount ? "counted by the provider at the last call, plus estimates since" : "estimated, about 4 characters a token";
  return `Context window of ${session.model}: ${fmt(window)} tokens. In use: about ${fmt(used)} (${Math.round((used / window) * 100)}%; ${counted}); ${auto}.`;
}

function formatSection(s: ContextSection): string {
  const tokens = s.tokens !== undefined ? `: about ${fmt(s.tokens)} tokens${s.partOf ? ` (part of ${s.partOf})` : ""}` : "";
  return [`- ${s.title}${tokens}`, ...(s.lines ?? []).map((l) => `    ${l}`)].join("\n");
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** The built-in sections. */
export function addBuiltinContextSections(report: ContextReport): void {
  report.add("system", ({ frame }) => ({ title: "System prompt", tokens: estimateTokens(frame.system) }));
  report.add("memory", ({ session, config }) => {
    const section = memoryIndexSection(session, config);
    if (!section) return undefined;
    return { title: `Memory index (${section.split("\n").length - 1} file(s))`, tokens: estimateTokens(section), partOf: "the system prompt" };
  });
  report.add("tools", ({ frame }) => {
    const names = [...frame.tools.definitions.map((d) => d.name), ...frame.tools.native.map((n) => `${n.name} (native)`)];
    return { title: `Tools (${names.length})`, tokens: estimateTools(frame.tools.definitions), lines: [names.join(", ")] };
  });
  report.add("history", ({ session }) => ({ title: `History (${session.history.length} message(s) in the working context)`, tokens: estimateMessages(session.history) }));
  report.add("compaction", ({ session }) => {
    const c = session.lastCompaction;
    if (!c) return { title: "Compactions: none yet" };
    return {
      title: `Last compaction: #${c.n} (${c.trigger}) at ${c.time}`,
      lines: [`about ${fmt(c.tokensBefore)} -> ${fmt(c.tokensAfter)} tokens; messages 1-${c.through} are in the archive${c.focus ? `; focus: ${c.focus}` : ""}`],
    };
  });
}
