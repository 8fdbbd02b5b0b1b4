/**
 * Slash commands (`agent/command`): a table of handlers other parts of the server add to, so
 * /undo lives with checkpoints and /logs with processes, not here.
 */
import type { Session } from "./session.js";

/** A slash command handler. Returns the message shown to the user; throw to report failure. */
export type SlashHandler = (args: string[], session: Session) => Promise<string>;

/** One command. */
export interface SlashCommand {
  name: string;
  usage: string;
  summary: string;
  run: SlashHandler;
}

/** The commands of a server. */
export class SlashCommands {
  private readonly table = new Map<string, SlashCommand>();

  /** Adds a command; the name is written without the slash. */
  add(command: SlashCommand): void {
    this.table.set(command.name, command);
  }

  /** Looks a command up by name, with or without its slash. */
  find(name: string): SlashCommand | undefined {
    return this.table.get(name.replace(/^\//, ""));
  }

  list(): SlashCommand[] {
    return [...this.table.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The help text. */
  help(): string {
    return this.list()
      .map((c) => `/${c.usage.padEnd(22)} ${c.summary}`)
      .join("\n");
  }
}
