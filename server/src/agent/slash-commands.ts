/**
 * Slash commands (`agent/command`): a table of handlers other parts of the server add to, so
 * /undo lives with checkpoints and /logs with processes, not here.
 */
import type { Session } from "./session.js";

/** A slash command handler. Returns the message shown to the user; throw to report failure. */
export type SlashHandler = (args: string[], session: Session) => Promise<string>;

/** One argument of a command, as `agent/listCommands` describes it. */
export interface CommandArgument {
  name: string;
  description?: string;
  required: boolean;
}

/** One command. */
export interface SlashCommand {
  name: string;
  usage: string;
  summary: string;
  /** Its arguments; read from `usage` (`<required>`, `[optional]`) when not given. */
  arguments?: CommandArgument[];
  run: SlashHandler;
}

/** The commands of a server. */
export class SlashCommands {
  private readonly table = new Map<string, SlashCommand>();

  /** Adds a command; the name is written without the slash. */
  add(command: SlashCommand): void {
    this.table.set(command.name, command);
  }

  /** Removes a command (an MCP server's prompt when the server stops). */
  remove(name: string): void {
    this.table.delete(name);
  }

  /** Looks a command up by name, with or without its slash. */
  find(name: string): SlashCommand | undefined {
    return this.table.get(name.replace(/^\//, ""));
  }

  list(): SlashCommand[] {
    return [...this.table.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Every command with its arguments, for editors that complete them (`agent/listCommands`). */
  describe(): { name: string; description: string; arguments: CommandArgument[] }[] {
    return this.list().map((c) => ({ name: c.name, description: c.summary, arguments: c.arguments ?? argumentsOf(c.usage) }));
  }

  /** The help text. */
  help(): string {
    return this.list()
      .map((c) => `/${c.usage.padEnd(22)} ${c.summary}`)
      .join("\n");
  }
}

/** The arguments a usage line names: `restore <id>` has a required `id`, `model [NAME/model-id]` an optional one. */
function argumentsOf(usage: string): CommandArgument[] {
  return [...usage.matchAll(/<([^>]+)>|\[([^\]]+)\]/g)].map((m) => ({ name: (m[1] ?? m[2])!, required: m[1] !== undefined }));
}
