/**
 * MCP server prompts as slash commands: `/mcp__<server>__<prompt>` (sanitised, lowercased). The
 * typed words become the prompt's arguments (mcp/prompt-args.ts); a missing required one
 * answers with a usage line. Otherwise the prompt is fetched (`prompts/get`) and its text is
 * sent as the user's message with the prompt's other parts: the transcript shows the text, then
 * the turn runs as any other.
 */
import type { SessionEvents } from "../../editor/session-events.js";
import type { McpManager } from "../../mcp/manager.js";
import { getMcpPrompt } from "../../mcp/operations.js";
import { promptArguments } from "../../mcp/prompt-args.js";
import type { Agent } from "../agent.js";
import type { SlashCommand } from "../commands/slash-commands.js";
import { sendAsUser } from "../commands/send-as-user.js";

/** The commands of one server's prompts (none unless it is ready). */
export function promptCommands(manager: McpManager, server: string, events: SessionEvents, agent: () => Agent): SlashCommand[] {
  return manager.promptsOf(server).map(({ command, prompt }) => {
    const declared = prompt.arguments ?? [];
    return {
      name: command,
      usage: [command, ...declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`))].join(" "),
      summary: `${prompt.description ?? prompt.title ?? prompt.name} (mcp:${server})`,
      arguments: declared.map((a) => ({ name: a.name, required: a.required === true, ...(a.description ? { description: a.description } : {}) })),
      takesContext: true,
      async run(args, session, { context }) {
        // Editors split the line at spaces; quotes and the last argument's spacing need the line back.
        const parsed = promptArguments(command, declared, args.join(" "));
        if (!parsed.ok) return parsed.usage;
        const text = await getMcpPrompt(manager, server, prompt.name, parsed.values, new AbortController().signal);
        return sendAsUser(agent(), events, session, text, context);
      },
    };
  });
}
