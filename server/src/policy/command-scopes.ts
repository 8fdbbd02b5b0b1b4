/**
 * The scopes of a command line: what "don't ask again" may remember for it (one program rule per
 * program it runs) and what it must be asked about besides (folders outside the project it runs
 * in or writes to, agent-lsp's own settings). Targets are judged where they really are: through
 * symlinks, and after the `cd`s of the line. Reads the disk (realpath), writes nothing.
 */
import path from "node:path";
import { isInside, realpathOfNearest } from "../workspace/paths.js";
import { agentSettingsPlaces, inAgentSettings, namesAgentSettings, SETTINGS_COMMAND_REASON, settingsPlaces, settingsScope, type SettingsPlaces } from "./agent-settings.js";
import { folderOf, oneLine, shownPath } from "./call-facts.js";
import { basename, effectiveWords, innerCommandLine, parseCommandLine, type CommandLine, type SimpleCommand } from "./command-line.js";
import { fileCandidates } from "./command-reads.js";
import { SensitiveReads } from "./command-sensitive.js";
import { redirectTargets, writerTargets, type WrittenWord } from "./command-writes.js";
import { neverRememberedReason } from "./launchers.js";
import { workingPlaces } from "./own-terms.js";
import { externalScope, uniqueScopes, type Scope } from "./rules.js";
import { guardScopes } from "./sensitive-scopes.js";
import type { SensitivePlaces } from "./sensitive.js";
import { globMayReach, resolveShellPath, type ShellPath } from "./shell-paths.js";
import { commandFolders, type Folders } from "./shell/folders.js";

/** Where a command line starts, for scoping what it does outside the project. */
export interface CommandPlace {
  /** Absolute folder the line starts in. */
  cwd: string;
  root: string;
  home: string;
  /** agent-lsp's settings and state folders (`agentSettingsPlaces`); by default from the environment and `home`. */
  settings?: readonly string[];
  /** The sensitive places (credentials, home, system roots): what the line reads there is asked as such. */
  sensitive?: SensitivePlaces;
}

/**
 * Scopes of a command line: one per program it runs (`npm test && npm run lint` is "npm"), so a
 * remembered program never approves a line that also runs something else. Lines that hide a
 * command (substitution) or hand one to a launcher (`bash -c`, `xargs`, `python`, `npx`) are
 * never remembered. With `place`, a program rule holds in this project only: running in a folder
 * outside it (from the start or after a `cd`) or writing a file outside it (a redirection or a
 * writer's argument, through symlinks) adds that folder's scope; reaching agent-lsp's settings
 * adds a scope only the user can answer.
 */
export async function commandScopes(command: string, place?: CommandPlace): Promise<Scope[]> {
  const line = await parseCommandLine(command);
  const scopes: Scope[] = [];
  if (line.opaque) scopes.push({ unremembered: line.opaque, autoAllowed: false });
  for (const cmd of line.commands) {
    const scope = programScope(cmd);
    if (scope) scopes.push(scope);
  }
  if (!scopes.length) scopes.push({ unremembered: "an empty command", autoAllowed: false });
  if (!place) return uniqueScopes(scopes);
  const judge = await LineJudge.create(place);
  return uniqueScopes([...scopes, ...(await judge.line(line, [place.cwd], 0))]);
}

/**
 * Only the sensitive scopes of a command line: what it reads or writes of the credentials, the
 * home folder, the system roots or agent-lsp's settings. For command lines that reach us another
 * way than execute_command (an MCP tool's `command` argument).
 */
export async function commandSensitiveScopes(command: string, place: CommandPlace): Promise<Scope[]> {
  const judge = await LineJudge.create(place);
  const scopes = await judge.line(await parseCommandLine(command), [place.cwd], 0);
  return uniqueScopes(place.sensitive ? guardScopes(scopes, place.sensitive).filter((s) => s.sensitive) : scopes.filter((s) => s.sensitive));
}

/** The program rule of one simple command, or why it has none. */
function programScope(cmd: SimpleCommand): Scope | undefined {
  const never = neverRememberedReason(cmd);
  if (never) return { unremembered: never, autoAllowed: false };
  const program = effectiveWords(cmd.words)[0];
  return program === undefined ? undefined : { rule: { kind: "program", program: basename(program) }, autoAllowed: false };
}

/** What of the settings a command reaches: as shown in the prompt, and the path. */
interface Reached {
  shown: string;
  path: string;
}

/** How deep `bash -c "bash -c ..."` is followed. */
const MAX_DEPTH = 4;

/** Files output may always go to: they are no place on disk. */
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

const UNKNOWN_CWD = "commands after a cd to a folder only the shell knows are never remembered";
const UNKNOWN_TARGET = "writing to a file only the shell can name is never remembered";

/** Judges the simple commands of a line where each runs. */
class LineJudge {
  private readonly resolved = new Map<string, Promise<ShellPath>>();
  private readonly reads: SensitiveReads | undefined;

  private constructor(
    private readonly place: CommandPlace,
    private readonly settings: SettingsPlaces,
    private readonly realRoot: string,
  ) {
    const resolve = (word: string, cwd: string, follow: boolean) => this.resolve(word, cwd, follow);
    this.reads = place.sensitive && new SensitiveReads(place.sensitive, place.root, realRoot, resolve);
  }

  static async create(place: CommandPlace): Promise<LineJudge> {
    const named = place.settings ?? agentSettingsPlaces(place.root, { ...process.env, HOME: place.home });
    return new LineJudge(place, await settingsPlaces(named), await realpathOfNearest(place.root));
  }

  /** The scopes of every simple command of `line`, starting in `start` (undefined: unknown), in each folder it may run in. */
  async line(line: CommandLine, start: Folders, depth: number): Promise<Scope[]> {
    const out: Scope[] = [];
    const folders = commandFolders(line, start, this.place.home);
    for (const cmd of line.commands) {
      const where = folders.get(cmd);
      for (const cwd of where ?? [undefined]) out.push(...(await this.command(cmd, cwd)));
      const inner = innerCommandLine(cmd);
      if (inner !== undefined && depth < MAX_DEPTH) out.push(...(await this.line(await parseCommandLine(inner), where, depth + 1)));
    }
    // What the grammar left as text but the shell runs (`${X:=`cmd`}`).
    for (const hidden of depth < MAX_DEPTH ? line.hidden : []) out.push(...(await this.line(await parseCommandLine(hidden), start, depth + 1)));
    return out;
  }

  private async command(cmd: SimpleCommand, cwd: string | undefined): Promise<Scope[]> {
    const out: Scope[] = [];
    const settings = await this.reachedSettings(cmd, cwd);
    if (settings) out.push(this.settingsScope(settings));
    if (this.reads) out.push(...(await this.reads.scopes(cmd, cwd)));
    if (cwd === undefined) return [...out, { unremembered: UNKNOWN_CWD, autoAllowed: false }];
    const outsideCwd = this.outsideFolder(cwd, await realpathOfNearest(cwd));
    if (outsideCwd !== undefined) out.push(externalScope(outsideCwd, "write"));
    for (const written of [...redirectTargets(cmd), ...writerTargets(cmd)]) out.push(...(await this.written(written, cwd)));
    for (const place of workingPlaces(cmd)) out.push(...(await this.workingPlace(place, cwd)));
    return out;
  }

  /** A folder or file a program works in (`tar -C`, `make -f`, `git -C`): a remembered program holds in the project only. */
  private async workingPlace(place: { word: string; what: string }, cwd: string): Promise<Scope[]> {
    const target = await this.resolve(place.word, cwd, true);
    const [abs, real] = target.kind === "path" ? [target.abs, target.real] : target.kind === "glob" ? [target.dir, target.realDir] : [undefined, undefined];
    if (abs !== undefined && this.outsideFolder(abs, real!) === undefined) return [];
    const why = abs === undefined ? `"${place.what} ${place.word}" is never remembered: only the shell knows that place` : `"${place.what} ${shownPath(abs, this.place.root)}" is never remembered: it works outside the project`;
    return [{ unremembered: why, autoAllowed: false }];
  }

  /** The scope a written file adds: none in the project, its folder outside it, the settings' own. */
  private async written(w: WrittenWord, cwd: string): Promise<Scope[]> {
    const target = await this.resolve(w.word, cwd, w.follow);
    if (target.kind === "unknown") return [{ unremembered: UNKNOWN_TARGET, autoAllowed: false }];
    const [abs, real] = target.kind === "glob" ? [target.dir, target.realDir] : [target.abs, target.real];
    if (HARMLESS_TARGETS.test(abs)) return [];
    if (inAgentSettings(this.settings, abs, real)) return [this.settingsScope({ shown: shownPath(abs, this.place.root), path: abs })];
    const outside = this.outsideFolder(abs, real);
    return outside === undefined ? [] : [externalScope(await folderOf(outside), "write")];
  }

  /**
   * What of agent-lsp's settings the command reaches, if anything: the folder it runs in, or a word
   * or redirection naming a settings folder by name, as a path (through symlinks and `..`), or as
   * a glob that may match one.
   */
  private async reachedSettings(cmd: SimpleCommand, cwd: string | undefined): Promise<Reached | undefined> {
    if (cwd !== undefined && inAgentSettings(this.settings, cwd, await realpathOfNearest(cwd))) {
      return { shown: shownPath(cwd, this.place.root), path: cwd };
    }
    for (const word of fileCandidates(cmd)) {
      if (namesAgentSettings(this.settings, word)) return { shown: oneLine(word, 80), path: this.settings.named[0]! };
      // Options are not resolved (their names are caught above); after an unknown cd only absolute words are.
      if (word.startsWith("-") || (cwd === undefined && !/^(\/|~|\$HOME|\$\{HOME\})/.test(word))) continue;
      const reached = this.settingsPath(await this.resolve(word, cwd ?? path.sep, true));
      if (reached !== undefined) return { shown: shownPath(reached, this.place.root), path: reached };
    }
    return undefined;
  }

  /** The scope of reaching the settings: a sensitive place, asked every time (see agent-settings.ts). */
  private settingsScope(reached: Reached): Scope {
    return settingsScope(SETTINGS_COMMAND_REASON, `Run a command on agent-lsp's own settings: ${reached.shown}`, reached.path);
  }

  /** The path (or glob) of `target` when it lies, or may lie, in a settings folder. */
  private settingsPath(target: ShellPath): string | undefined {
    if (target.kind === "unknown") return undefined;
    if (target.kind === "path") return inAgentSettings(this.settings, target.abs, target.real) ? target.abs : undefined;
    const may = this.settings.named.some((p) => globMayReach(target.pattern, p)) || this.settings.real.some((p) => globMayReach(target.realPattern, p));
    return may ? target.pattern : undefined;
  }

  private resolve(word: string, cwd: string, follow: boolean): Promise<ShellPath> {
    const key = `${follow}\0${cwd}\0${word}`;
    let found = this.resolved.get(key);
    if (!found) this.resolved.set(key, (found = resolveShellPath(word, cwd, this.place.home, follow)));
    return found;
  }

  /**
   * The path to scope a write outside the project by: its name when that is already outside (as
   * file tools are scoped), where it really is when a link in the project leads out; undefined
   * when it stays in the project.
   */
  private outsideFolder(abs: string, real: string): string | undefined {
    if (!isInside(this.place.root, abs)) return abs;
    return isInside(this.realRoot, real) ? undefined : real;
  }
}
