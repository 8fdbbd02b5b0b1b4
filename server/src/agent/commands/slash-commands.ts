/**
 * Slash commands (`agent/command`): a table of handlers other parts of the server add to, so
 * /undo lives with checkpoints and /logs with processes, not here.
 */
import type { PromptContentBlock } from "../../protocol/schemas.js";
import type { Session } from "../session.js";
import type { TurnOutcome } from "../agent.js";
import { byCommandName } from "./command-order.js";

/** What a command is given beside its words. */
export interface CommandInput {
  /** The prompt's other parts (files, pictures, text) sent with the command; only a command that `takesContext` gets them. */
  context?: PromptContentBlock[];
}

/** What a command that sent a message did: its message, and the turn it ran. */
export interface CommandRun {
  message: string;
  /** How the command's turn ended, and when its loop finished after a cancel (see StartedTurn). */
  turn?: { outcome: TurnOutcome; settled: Promise<TurnOutcome> };
}

/** A slash command handler. Returns the message shown to the user (or a {@link CommandRun}); throw to report failure. */
export type SlashHandler = (args: string[], session: Session, input: CommandInput) => Promise<string | CommandRun>;

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
  /** Whether it sends a message to the model, to which the prompt's other parts are added. */
  takesContext?: boolean;
  run: SlashHandler;
}

/** Commands that depend on the session's project (its workflows and skills), listed afresh each time. */
export type CommandSource = (session: Session) => SlashCommand[];

/** The commands of a server. */
export class SlashCommands {
  private readonly table = new Map<string, SlashCommand>();
  private readonly sources: CommandSource[] = [];

  /** Adds a source of per-session commands; a fixed command of the same name wins. */
  addSource(source: CommandSource): void {
    this.sources.push(source);
  }

  /** Adds a command; the name is written without the slash. */
  add(command: SlashCommand): void {
    this.table.set(command.name, command);
  }

  /** Removes a command (an MCP server's prompt when the server stops). */
  remove(name: string): void {
    this.table.delete(name);
  }

  /** Looks a command up by name, with or without its slash; with a session, its project's commands too. */
  find(name: string, session?: Session): SlashCommand | undefined {
    const bare = name.replace(/^\//, "");
    return this.table.get(bare) ?? (session ? this.fromSources(session).find((c) => c.name === bare) : undefined);
  }

  /** The commands, sorted; with a session, its project's commands too. */
  list(session?: Session): SlashCommand[] {
    const fixed = [...this.table.values()];
    const extra = session ? this.fromSources(session).filter((c) => !this.table.has(c.name)) : [];
    return [...fixed, ...extra].sort((a, b) => byCommandName(a.name, b.name));
  }

  /** Every command with its arguments, for editors that complete them (`agent/listCommands`). */
  describe(session?: Session): { name: string; description: string; arguments: CommandArgument[] }[] {
    return this.list(session).map((c) => ({ name: c.name, description: c.summary, arguments: c.arguments ?? argumentsOf(c.usage) }));
  }

  private fromSources(session: Session): SlashCommand[] {
    return this.sources.flatMap((source) => source(session));
  }

  /** The help text. */
  help(session?: Session): string {
    return this.list(session)
      .map((c) => `/${c.usage.padEnd(22)} ${c.summary}`)
      .join("\n");
  }
}

/** The arguments a usage line names: `restore <id>` has a required `id`, `model [NAME/model-id]` an optional one. */
function argumentsOf(usage: string): CommandArgument[] {
  return [...usage.matchAll(/<([^>]+)>|\[([^\]]+)\]/g)].map((m) => ({ name: (m[1] ?? m[2])!, required: m[1] !== undefined }));
}
