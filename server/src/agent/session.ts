/**
 * A session: one conversation in one project, with its mode, model, history and log.
 */
import type { SafetyMode } from "../config/schema.js";
import type { ContentBlock, Message, Usage } from "../vocabulary/messages.js";
import { addUsage, ZERO_USAGE } from "../vocabulary/messages.js";
import type { Trust } from "../policy/types.js";
import type { PlanEntry } from "../protocol/updates.js";
import type { Workspace } from "../workspace/workspace.js";
import type { RoutePurpose } from "../tools/knowledge/model-routing-config.js";
import type { CompactionRecord, CompactionTrigger } from "./history/history.js";
import type { HistoryLog } from "./history/history-log.js";
import { isCheckpoint } from "./compaction/checkpoint.js";

/** A compaction asked for (by compact_context or /compact) and not yet run. */
export interface CompactionRequest {
  trigger: CompactionTrigger;
  focus?: string;
}

/**
 * What the session knows of its context's size: the tokens the provider counted for the last
 * call (its input, cached input, and the answer that joined the history), and how many history
 * messages that count covers; messages after them are estimated.
 */
export interface ContextCount {
  tokens: number;
  messages: number;
}
import type { ProjectKnowledge } from "../knowledge/project-knowledge.js";

/** A turn in flight. */
export interface ActiveTurn {
  controller: AbortController;
  /** Settles when the turn has finished writing its history. */
  done: Promise<unknown>;
}

/**
 * A prompt whose turn failed before the model answered it. It stays in the log and the replay,
 * but out of `history`: the model never saw it, and the user believes it failed.
 */
export interface FailedPrompt {
  /** How many history messages came before it (where the replay shows it). */
  at: number;
  content: ContentBlock[];
  error: string;
  /** Its log number (lets a rewind find it). */
  seq?: number;
}

/** What a model besides the session's own is used for. */
export type ModelPurpose = Exclude<RoutePurpose, "session">;

/** The purposes a session can route to a model of their own. */
const ROUTED_PURPOSES: readonly ModelPurpose[] = ["safety_check", "compaction", "subagent"];

/** One conversation. */
export class Session {
  /** What the model sees: every message it answered or will answer (the working context). */
  readonly history: Message[] = [];
  /** The log number of each history message (undefined for a checkpoint). */
  readonly seqs: (number | undefined)[] = [];
  readonly failedPrompts: FailedPrompt[] = [];
  mode: SafetyMode;
  model: string;
  trust: Trust = "operator";
  usage: Usage = ZERO_USAGE;
  cost = 0;
  turn: ActiveTurn | undefined;
  /** Set after a provider rejected its native tools: our schemas for the rest of the session. */
  nativeToolsDisabled = false;
  /** Deferred tools advertised directly (activated, or found by tool_search); kept in the log. */
  readonly activatedTools = new Set<string>();
  /** Log number of the last prompt (in the history or failed): what a rewind takes back. */
  private lastPromptSeq: number | undefined;
  /** The provider's last count of the context (see ContextCount); unset until a model call reports usage. */
  contextCount: ContextCount | undefined;
  /** A compaction to run before the next model call. */
  compactionRequest: CompactionRequest | undefined;
  /** The last compaction (from the log on load). */
  lastCompaction: CompactionRecord | undefined;
  /** The checklist (task_create, task_update, change_todo_list); kept in the log, shown as `plan`. */
  checklist: PlanEntry[] = [];
  /** Tool categories this session is never offered (delegation inside a subagent...). */
  readonly withheldCategories = new Set<string>();
  /** Tool names this session is never offered (spawn_task inside a spawned task). */
  readonly withheldTools = new Set<string>();
  /** Started by spawn_task: it may not spawn tasks itself. Kept in the log. */
  readonly spawned: boolean;
  /** The rule files and skills read at the start of the current turn (see agent/knowledge/knowledge.ts). */
  knowledge: ProjectKnowledge | undefined;
  /** The file the last prompt was about (its `context.uri`), absolute: its folders' AGENTS.md apply. */
  focusFile: string | undefined;
  /** Models chosen per purpose for this session (model_routing_config); unset ones follow the config. */
  readonly modelRoutes: Partial<Record<ModelPurpose, string>> = {};

  constructor(
    readonly id: string,
    readonly workspace: Workspace,
    readonly log: HistoryLog,
    init: {
      mode: SafetyMode;
      model: string;
      history?: Message[];
      seqs?: (number | undefined)[];
      failedPrompts?: FailedPrompt[];
      activatedTools?: readonly string[];
      lastPromptSeq?: number | undefined;
      lastCompaction?: CompactionRecord;
      checklist?: PlanEntry[];
      spawned?: boolean;
      routes?: Record<string, string>;
    },
  ) {
    this.mode = init.mode;
    this.model = init.model;
    this.checklist = init.checklist ?? [];
    this.spawned = init.spawned ?? false;
    for (const [purpose, model] of Object.entries(init.routes ?? {})) {
      if (ROUTED_PURPOSES.includes(purpose as ModelPurpose)) this.modelRoutes[purpose as ModelPurpose] = model;
    }
    if (this.spawned) this.withheldTools.add(SPAWN_TASK_TOOL);
    for (const name of init.activatedTools ?? []) this.activatedTools.add(name);
    if (init.history) {
      this.history.push(...init.history);
      this.seqs.push(...(init.seqs ?? init.history.map(() => undefined)));
    }
    this.lastCompaction = init.lastCompaction;
    if (init.failedPrompts) this.failedPrompts.push(...init.failedPrompts);
    this.lastPromptSeq = init.lastPromptSeq;
  }

  get root(): string {
    return this.workspace.root;
  }

  /** Advertises deferred tools directly from the next model call on; new ones are logged, so a resumed session keeps them. */
  activate(names: readonly string[]): void {
    const added = names.filter((n) => !this.activatedTools.has(n));
    if (!added.length) return;
    for (const n of added) this.activatedTools.add(n);
    this.log.settings({ activated: added });
  }

  /** What subagents used during the running turn (part of the turn's usage in its answer). */
  delegatedThisTurn: Usage = ZERO_USAGE;

  /**
   * Counts what a subagent used towards this session's totals (/usage, the cost in usage
   * updates) and the running turn's.
   */
  addDelegatedUsage(usage: Usage, cost: number): void {
    this.usage = addUsage(this.usage, usage);
    this.delegatedThisTurn = addUsage(this.delegatedThisTurn, usage);
    this.cost += cost;
  }

  /** Replaces the checklist: logged first, so a resumed session shows it as it was left. */
  setChecklist(entries: PlanEntry[]): void {
    this.log.checklist(entries);
    this.checklist = entries;
  }

  /** Appends a message to memory and to the log, in that order of durability: log first. Returns its log number. */
  append(message: Message): number {
    return this.remember(message, this.log.append(message));
  }

  /**
   * {@link append} for a message that may be large (a model's answer with its tool input, tool
   * results): logged without holding the event loop (HistoryLog.appendAsync), then remembered.
   */
  async appendAsync(message: Message): Promise<number> {
    return this.remember(message, await this.log.appendAsync(message));
  }

  /** Takes a logged message (number `seq`) into the history. */
  private remember(message: Message, seq: number): number {
    this.history.push(message);
    this.seqs.push(seq);
    // Only prompts are user messages (tool results have their own role).
    if (message.role === "user") this.lastPromptSeq = seq;
    return seq;
  }

  /**
   * Takes `prompt` (logged as `seq`) back out of the history after its turn failed before the
   * model answered: otherwise every later prompt would carry it along, and the model would act on
   * a request the user saw fail. The log keeps it, marked failed. Returns false, changing nothing,
   * when anything came after the prompt (then the turn did real work, which stays).
   */
  retractPrompt(prompt: Message, seq: number, error: string): boolean {
    if (this.history[this.history.length - 1] !== prompt || prompt.role !== "user") return false;
    this.history.pop();
    this.seqs.pop();
    this.failedPrompts.push({ at: this.history.length, content: prompt.content, error, seq });
    try {
      this.log.markFailed(seq, error);
    } catch {
      // The log cannot take the mark either (the same full disk): the turn's error says so, and
      // the prompt still leaves the history the model sees.
    }
    return true;
  }

  /**
   * Edit and re-send: takes the last prompt and everything after it (the answer, its tool calls)
   * out of the history, or drops the last prompt from the failed ones when its turn failed. The
   * log keeps the lines and records the rewind, so a resumed session comes back rewound. Returns
   * false when there is no prompt to take back (none yet, already rewound, or compacted away).
   */
  rewindLastExchange(): boolean {
    const seq = this.lastPromptSeq;
    if (seq === undefined) return false;
    const failed = this.failedPrompts.findIndex((f) => f.seq === seq);
    if (failed >= 0) this.failedPrompts.splice(failed, 1);
    else {
      const at = lastPromptIndex(this.history);
      if (at < 0) return false;
      this.history.splice(at);
      this.seqs.splice(at);
    }
    this.log.rewind(seq);
    this.lastPromptSeq = undefined;
    return true;
  }

  /**
   * Replaces the first `count` history messages with `checkpoint` after compaction `record` (already
   * logged) archived them. The count the provider made no longer applies.
   */
  applyCompaction(record: CompactionRecord, checkpoint: Message, count: number): void {
    this.history.splice(0, count, checkpoint);
    this.seqs.splice(0, count, undefined);
    // Failed prompts shown before the checkpoint belong to the archive now.
    const kept = this.failedPrompts.filter((f) => f.at >= count).map((f) => ({ ...f, at: f.at - count + 1 }));
    this.failedPrompts.splice(0, this.failedPrompts.length, ...kept);
    // A prompt the summary stands for can no longer be taken back by an edit and re-send.
    if (this.lastPromptSeq !== undefined && this.lastPromptSeq <= record.through) this.lastPromptSeq = undefined;
    this.lastCompaction = record;
    this.contextCount = undefined;
    this.compactionRequest = undefined;
  }
}

/** Where the last prompt is in the history (never a checkpoint, which stands for the archive). */
function lastPromptIndex(history: readonly Message[]): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === "user" && !isCheckpoint(history[i]!)) return i;
  return -1;
}

/** The tool a spawned task is never offered (a task may not spawn tasks). */
const SPAWN_TASK_TOOL = "spawn_task";
