/**
 * The `agent/update` notification payloads: everything a turn streams to the editor.
 * Shapes follow the Agent Client Protocol's session updates where it has one.
 */

/** Status of a tool call as the editor shows it. */
export type ToolCallStatus = "pending" | "running" | "completed" | "failed";

/** One entry of a plan/checklist. */
export interface PlanEntry {
  /** The checklist item's id (task_create/task_update); absent in a make_plan proposal. */
  id?: string;
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority?: "high" | "medium" | "low";
}

/** What kind of thing a tool call does, for the editor to choose an icon or a layout (ACP's kinds). */
export type ToolCallKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";

/** A place a tool call reads or changes: a path (relative inside the project), optionally a line range. */
export interface ToolCallLocation {
  path: string;
  /** 1-based first line, when the call names one. */
  line?: number;
  /** 1-based last line, when the call names a range. */
  endLine?: number;
}

/** One file's part of a tool call's change. */
export interface FileDiff {
  path: string;
  /** Unified diff of that file alone. */
  diff: string;
}

/** The structured side of a tool call: what it does, where, and the command it runs. */
export interface ToolCallFacts {
  /** What the call does (read, edit, execute...). */
  toolKind?: ToolCallKind;
  /** The files and lines it is about. */
  locations?: ToolCallLocation[];
  /** For a command: the command line and the folder it runs in. */
  command?: { command: string; cwd: string };
  /**
   * When the model called a provider-native tool (Anthropic's `str_replace_based_edit_tool` or
   * `bash`, OpenAI's `apply_patch`): the name it called. `name` and `input` are those of our tool
   * that runs the call; editors show the call as the model wrote it with this and `modelInput`.
   */
  modelName?: string;
  /** That native call's input as the model wrote it (`old_str`/`new_str`, `command`). */
  modelInput?: unknown;
}

/** A finished phase, as phase_report reports it. */
export interface PhaseReport {
  completed: string;
  verification: string;
  nextPhase?: string;
  /** The turn waits for the user to acknowledge (or stop) before it goes on. */
  requiresAcknowledgment: boolean;
}

/** A phase report in one line, for clients that show it as a notice or a line of text. */
export function phaseReportLine(report: PhaseReport): string {
  const next = report.nextPhase ? ` Next: ${report.nextPhase}.` : "";
  return `Phase done: ${report.completed}. Verified: ${report.verification}.${next}`;
}

/**
 * Set on the updates of a subagent: the id of the parent's tool call (`agent`, `use_subagents`)
 * that started it, and which of its subagents (1-based) this is. Editors nest them under that call.
 */
export interface SubagentTag {
  parentToolCallId?: string;
  subagent?: number;
}

/** A single streamed update. */
export type SessionUpdate = SubagentTag &
  (
    | {
        kind: "user_message";
        text: string;
        /** Files the prompt carried (root-relative), shown as attachments rather than their text. */
        attachments?: string[];
      }
    | { kind: "text"; text: string }
    | { kind: "thought"; text: string }
    | ({
        kind: "tool_call";
        id: string;
        name: string;
        title: string;
        input: unknown;
        status: ToolCallStatus;
      } & ToolCallFacts)
    | {
        kind: "tool_call_update";
        id: string;
        status: ToolCallStatus;
        /** With `failed`: the user said No to it, or took nothing of the change they reviewed. */
        declined?: boolean;
        /** A short summary of the result (first lines, capped). */
        output?: string;
        /** Unified diff of the change the tool made, when it changed files. */
        diff?: string;
        /** The same change, file by file. */
        files?: FileDiff[];
      }
    | { kind: "plan"; entries: PlanEntry[] }
    /** working_respond: a short message to the user; the turn goes on. */
    | { kind: "working_message"; text: string }
    | ({ kind: "phase_report" } & PhaseReport)
    /** attempt_completion: the task's final result; the turn ends with it. */
    | { kind: "completion"; result: string; command?: string }
    /** spawn_task started a new session (open it with agent/loadSession). */
    | { kind: "task_spawned"; sessionId: string; title: string }
    | {
        kind: "usage";
        inputTokens: number;
        outputTokens: number;
        cachedTokens: number;
        /** Estimated cost in US dollars of this turn, when the model's price is known. */
        cost?: number;
        /** Cumulative over the session. */
        sessionCost?: number;
        /** Tokens in the context by the provider's last count, and the model's context window. */
        contextTokens?: number;
        contextWindow?: number;
      }
    | { kind: "status"; text: string }
    /**
     * The older history was summarised into a checkpoint (`/compact`, `compact_context`, or the
     * automatic trigger): the editor shows a marker in the chat. Also replayed by agent/loadSession.
     */
    | {
        kind: "compaction";
        /** 1 for the session's first compaction, then 2, 3... */
        n: number;
        /** Who asked: `auto` (the context passed the threshold), `model` (compact_context), `user` (/compact), `provider` (the provider compacted server-side). */
        trigger: "auto" | "model" | "user" | "provider";
        /** Estimated tokens of the working context before and after. */
        tokensBefore: number;
        tokensAfter: number;
        /** Messages numbered up to this are in the archive (context_archive reads them). */
        through: number;
        /** The start (and end) of the checkpoint summary, at most about 400 characters. */
        summaryPreview: string;
      }
    | { kind: "error"; message: string }
  );

/**
 * How a turn ended: the last event of every turn. Not sent as `agent/update` (the `agent/prompt`
 * answer carries it); subscribers inside the server (summaries, chat files, tests) use it.
 */
export interface TurnEnd {
  kind: "turn_end";
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number };
  /** The readable reason when the turn ended in an error. */
  error?: string;
}

/** Params of the `agent/update` notification. */
export interface UpdateParams {
  sessionId: string;
  update: SessionUpdate;
}
