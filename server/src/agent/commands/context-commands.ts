/** The slash commands about the context window: `/compact [focus]` and `/context`. */
import type { Agent } from "../agent.js";
import type { ContextReport } from "../compaction/context-report.js";
import type { SlashCommands } from "./slash-commands.js";

/** Adds /compact and /context. */
export function addContextCommands(commands: SlashCommands, agent: Agent, report: ContextReport): void {
  commands.add({
    name: "compact",
    usage: "compact [focus]",
    summary: "Summarise the older history into a checkpoint now (nothing is deleted: the archive keeps it).",
    run: (args, session) => agent.compact(session.id, args.join(" ").trim() || undefined),
  });
  commands.add({
    name: "context",
    usage: "context",
    summary: "What fills the context window: system prompt, tools, history, memory, the last compaction.",
    run: async (_args, session) => report.render({ session, config: agent.deps.config(), frame: await agent.frameOf(session.id) }),
  });
}
