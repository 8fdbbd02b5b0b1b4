/**
 * The agent protocol's methods as data: direction, params schema, result, errors and an example
 * each. docs/protocol.md is rendered from this table (protocol/doc.ts), and a test keeps the two
 * in step, so the document cannot drift from what the server validates.
 */
import type { z } from "zod";
import {
  cancelParams,
  commandParams,
  listCommandsParams,
  listSessionsParams,
  loadSessionParams,
  newSessionParams,
  promptParams,
  setModeParams,
  setModelParams,
  listModelsParams,
  reloadConfigParams,
} from "./schemas.js";

/** One method of the protocol. */
export interface MethodSpec {
  method: string;
  direction: "client → server" | "server → client";
  kind: "request" | "notification";
  summary: string;
  params?: z.ZodType;
  /** Params written out, for server → client methods (no schema is validated there). */
  paramsText?: string;
  result?: string;
  errors: string[];
  example: { params: unknown; result?: unknown };
}

const SESSION_ERRORS = ["-32602 when a param is missing or of the wrong type (the message names the field)", "-32602 when `sessionId` names no session"];

/** Every custom method, in the order the document lists them. */
export const METHODS: MethodSpec[] = [
  {
    method: "agent/newSession",
    direction: "client → server",
    kind: "request",
    summary: "Starts a session in the project (or `cwd`, relative to the workspace folder). `mode` and `model` default to the config's `safety` and `model`. The first one is answered before the agent has loaded (from the configuration alone: a model no provider serves or a state folder that refuses the log still fail it); the agent loads right after, and requests on the session wait for it.",
    params: newSessionParams,
    result: "{ sessionId: string, mode: SafetyMode, model: string }",
    errors: ["-32602 when a param has the wrong type, or `model` names no provider"],
    example: { params: { mode: "ask" }, result: { sessionId: "s-mx2dissa-d770rr", mode: "ask", model: "anthropic/claude-sonnet-4-6" } },
  },
  {
    method: "agent/prompt",
    direction: "client → server",
    kind: "request",
    summary:
      "Runs one turn. Everything the turn does streams as `agent/update` notifications; the answer comes when the turn ends. `context` points at what the user is looking at: the file, the range (its text is read from the buffer) and diagnostics. `replaceLast: true` edits and re-sends: the session's last exchange (its last prompt, the answer and the tool calls after it) leaves the model's history before this prompt runs; the log keeps its lines and records a `rewind`, so `agent/loadSession` restores the rewound state (files the dropped exchange changed stay changed: `/undo` reverts them). With no prompt before, it is an ordinary prompt.",
    params: promptParams,
    result: "{ stopReason: \"end_turn\" | \"cancelled\" | \"max_turns\" | \"max_tokens\" | \"refusal\" | \"error\", usage: { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens }, error?: string }",
    errors: [...SESSION_ERRORS, "-32803 when the session is already running a turn"],
    example: {
      params: { sessionId: "s-mx2dissa-d770rr", prompt: "Why does this fail?", context: { uri: "file:///work/app/src/main.ts", range: { start: { line: 9, character: 0 }, end: { line: 12, character: 0 } } } },
      result: { stopReason: "end_turn", usage: { inputTokens: 1840, outputTokens: 212, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    },
  },
  {
    method: "agent/cancel",
    direction: "client → server",
    kind: "notification",
    summary: "Stops the session's running turn at once: the model's stream is aborted, a running tool gets its abort signal, an open permission prompt is withdrawn, and the pending `agent/prompt` answers `cancelled`.",
    params: cancelParams,
    errors: ["none (a notification): bad params are logged"],
    example: { params: { sessionId: "s-mx2dissa-d770rr" } },
  },
  {
    method: "agent/listSessions",
    direction: "client → server",
    kind: "request",
    summary: "Lists the sessions saved under `.agent-lsp/conversations/`, newest first.",
    params: listSessionsParams,
    result: "{ sessions: [{ sessionId, title, updatedAt }] }",
    errors: [],
    example: { params: {}, result: { sessions: [{ sessionId: "s-mx2dissa-d770rr", title: "Why does this fail?", updatedAt: "2026-11-29T21:49:11.000Z" }] } },
  },
  {
    method: "agent/loadSession",
    direction: "client → server",
    kind: "request",
    summary: "Resumes a saved session. Its history is replayed as `agent/update` notifications (`user_message`, `text`, `thought`, `tool_call`, `tool_call_update`) before the answer; after a compaction, only the working context: a `compaction` update for the checkpoint, then the messages after it (the rest stays in the log, for `context_archive`). A corrupt line of the log is skipped and a `status` update names it. A prompt whose turn failed before the model answered replays as its `user_message` followed by an `error` saying it was not sent to the model; it is not part of the model's context. The session works on the project whose state folder holds its log, and comes back in the mode it was left in unless that is wider than the configured `safety` (a session log is a file a repository can ship): then in `safety`, with a `status` update saying so.",
    params: loadSessionParams,
    result: "{ sessionId, mode, model }",
    errors: ["-32602 when no saved session has that id"],
    example: { params: { sessionId: "s-mx2dissa-d770rr" }, result: { sessionId: "s-mx2dissa-d770rr", mode: "ask", model: "anthropic/claude-sonnet-4-6" } },
  },
  {
    method: "agent/setMode",
    direction: "client → server",
    kind: "request",
    summary: "Changes the session's safety mode (see docs/safety.md).",
    params: setModeParams,
    result: "{ mode }",
    errors: SESSION_ERRORS,
    example: { params: { sessionId: "s-mx2dissa-d770rr", mode: "read_only" }, result: { mode: "read_only" } },
  },
  {
    method: "agent/setModel",
    direction: "client → server",
    kind: "request",
    summary:
      "Switches the session's model from its next model call on. The model is `NAME/model-id` of a provider that can be called (its key is there, or it needs none), and one of its `models` where the provider lists them; `agent/listModels` gives the choices. Other purposes (safety check, compaction, subagents) are routed with `/model PURPOSE NAME/model-id`.",
    params: setModelParams,
    result: "{ sessionId, mode, model }",
    errors: [...SESSION_ERRORS, "-32602 when `model` names no provider, a provider without its key, or a model its `models` list lacks (the message names the value)"],
    example: { params: { sessionId: "s-mx2dissa-d770rr", model: "anthropic/claude-opus-4-1" }, result: { sessionId: "s-mx2dissa-d770rr", mode: "ask", model: "anthropic/claude-opus-4-1" } },
  },
  {
    method: "agent/listModels",
    direction: "client → server",
    kind: "request",
    summary:
      "The session's model, the model each purpose is routed to, and the models that can be chosen: per provider that can be called, its `model`, its `models` list, or (without one) the ids of its type agent-lsp knows. For completion in editors (Neovim's `:AgentModel`).",
    params: listModelsParams,
    result: "{ model: string, routes: { safety_check: string, compaction: string, subagent: string }, providers: [{ provider: string, models: string[] }] }",
    errors: SESSION_ERRORS,
    example: {
      params: { sessionId: "s-mx2dissa-d770rr" },
      result: {
        model: "anthropic/claude-sonnet-4-6",
        routes: { safety_check: "anthropic/claude-haiku-4-5", compaction: "anthropic/claude-sonnet-4-6", subagent: "anthropic/claude-sonnet-4-6" },
        providers: [{ provider: "anthropic", models: ["anthropic/claude-sonnet-4-6", "anthropic/claude-opus-4-1", "anthropic/claude-haiku-4-5"] }],
      },
    },
  },
  {
    method: "agent/command",
    direction: "client → server",
    kind: "request",
    summary:
      "Runs a slash command (`/help` lists them: /undo, /checkpoints, /restore, /logs, /stop, /model, /mode, /usage, /tools, /rules ...). Each workflow of the session's project (`.agent-lsp/workflows/NAME.md`) is `/NAME [notes]` and each skill `/skill:NAME [task]`: they send the steps (or the request to run the skill) as the user's message, like a prompt command, and answer when that turn ends (docs/skills.md). An MCP server's prompt is a command too (`/mcp__<server>__<prompt> words...`): the words become its arguments in order (double quotes group, the last takes the rest; a missing required one answers with a usage line), the fetched prompt text is streamed as a `user_message` update and sent as the user's message, and the answer comes when that turn ends (`message` is empty, or says how the turn stopped).",
    params: commandParams,
    result: "{ message: string }",
    errors: [...SESSION_ERRORS, "-32602 for an unknown command (the message lists the known ones)", "-32803 when the command fails (the message says why)"],
    example: { params: { sessionId: "s-mx2dissa-d770rr", command: "/model", args: ["openai/gpt-5"] }, result: { message: "Model set to openai/gpt-5." } },
  },
  {
    method: "agent/listCommands",
    direction: "client → server",
    kind: "request",
    summary:
      "Lists every slash command `agent/command` runs, built-in, the project's workflows and skills (`/NAME`, `/skill:NAME`, read afresh each time) and MCP (each prompt of a ready MCP server is `/mcp__<server>__<prompt>`), with its arguments, so an editor can complete them. Starts the session's MCP servers first if they are not running (as a turn would), so the answer can wait for their start-up.",
    params: listCommandsParams,
    result: "{ commands: [{ name: string, description: string, arguments: [{ name: string, description?: string, required: boolean }] }] }",
    errors: SESSION_ERRORS,
    example: {
      params: { sessionId: "s-mx2dissa-d770rr" },
      result: {
        commands: [
          { name: "help", description: "List the slash commands.", arguments: [] },
          { name: "mcp__docs__explain", description: "Explain a topic (mcp:docs)", arguments: [{ name: "topic", description: "What to explain", required: true }] },
        ],
      },
    },
  },
  {
    method: "agent/reloadConfig",
    direction: "client → server",
    kind: "request",
    summary:
      "Reads the configuration again (every layer: the user's and the project's `config.toml`, `initializationOptions`) and answers how the server will now call each provider. `env` hands over the provider variables of the editor's own environment, which a running server never sees change (a key set in the editor after the server started): each name a provider reads (`env` of the answer: the built-in key and base-URL variables and every `api_key_env`) is set in the server's environment, `null` unsets it, and any other name is ignored (named in `ignored`). The server also re-reads its config files on its own when one of them changed (looked at, at most once a second, when the configuration is next used). Editors call this before a prompt when the variables changed, and `:checkhealth`-style reports show its answer: what the running server will use, not what a new process would.",
    params: reloadConfigParams,
    result: "{ providers: [{ provider: string, ok: boolean, detail: string }], env: string[], ignored?: string[] }",
    errors: ["-32602 when `env` is not an object of strings (or null)"],
    example: {
      params: { env: { ANTHROPIC_API_KEY: "sk-ant-…" } },
      result: {
        providers: [
          { provider: "anthropic", ok: true, detail: "key set (the environment variable ANTHROPIC_API_KEY)" },
          { provider: "openai", ok: false, detail: "No API key for openai: set OPENAI_API_KEY or [providers.openai] api_key_env." },
        ],
        env: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY", "GEMINI_BASE_URL", "GOOGLE_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"],
      },
    },
  },
  {
    method: "agent/update",
    direction: "server → client",
    kind: "notification",
    summary:
      "One streamed piece of a turn, sent only to clients of the agent protocol: those that declare `capabilities.experimental.agent`, or (from then on) call one of its `agent/*` requests; others (Helix) would only log each as ignored. `update.kind` is `user_message` (replays: {text, attachments?}, `attachments` being the project-relative paths of the files the prompt carried), `text` (the next piece of the answer), `thought`, `tool_call` ({id, name, title, input, status: pending|running|completed|failed, toolKind?: read|edit|delete|move|search|execute|think|fetch|other, locations?: [{path, line?, endLine?}], command?: {command, cwd}, modelName?, modelInput?}; `modelName`/`modelInput` are the call as the model wrote it when it called a provider-native tool such as `str_replace_based_edit_tool` or `bash`, while `name`/`input` are those of the agent-lsp tool that runs it; a string in `input` or `modelInput` longer than 16 KiB is shown as its first and last part around `[… N characters not shown …]`, as the change itself comes as the edit or diff), `tool_call_update` ({id, status, declined?, output?, diff?, files?: [{path, diff}]}: the change as one unified diff and file by file; `declined: true` with `failed` when the user said No to the call or reviewed its change and took none of it, so show it as declined, not failed), `plan` ({entries: [{id?, content, status: pending|in_progress|completed, priority?}]}: make_plan's proposal, or the session's checklist as it now stands, sent after every change and again at the end of an agent/loadSession replay; show the latest at the top of the chat), `working_message` ({text}: working_respond, a message to the user mid-turn; the turn goes on), `phase_report` ({completed, verification, nextPhase?, requiresAcknowledgment}: a finished phase; with requiresAcknowledgment an agent/askUser (or showMessageRequest) with the choices `Continue` and `Stop here` follows, and Stop ends the turn), `completion` ({result, command?}: attempt_completion, the task's final result; the turn ends with it; show it apart from the running text), `task_spawned` ({sessionId, title}: spawn_task started a new session, saved like any other; open it with agent/loadSession), `usage` ({inputTokens, outputTokens, cachedTokens, cost?, sessionCost?, contextTokens?, contextWindow?}: the turn's tokens and cost; contextTokens is the context's size by the provider's last count and contextWindow the model's window, for a gauge; not sent for a turn that used no tokens), `status` ({text}, e.g. \"retrying in 4 s: 529 overloaded (attempt 2 of 5)\") `compaction` ({n, trigger: auto|model|user|provider, tokensBefore, tokensAfter, through, summaryPreview}: the older history was summarised into checkpoint n and messages 1..through are in the archive; show a marker in the chat), or `error` ({message}; when the turn failed before the model answered, it also says the prompt was not sent to the model and can be sent again). A subagent's updates (of the `agent` and `use_subagents` tools) come on its parent's session with `parentToolCallId` (the id of the parent's tool call that started it) and `subagent` (which of that call's subagents, from 1): `tool_call`, `tool_call_update`, `text`, `thought`, `usage`, `status`, `error`. Show them nested under that call; the subagent's final answer is also that call's result, so its `text` is not the parent's answer.",
    paramsText: "{ sessionId: string, update: SessionUpdate }",
    errors: [],
    example: { params: { sessionId: "s-mx2dissa-d770rr", update: { kind: "text", text: "The test fails because " } } },
  },
  {
    method: "agent/requestPermission",
    direction: "server → client",
    kind: "request",
    summary:
      "Asks the user to allow a gated action; sent only to clients that declare `capabilities.experimental.agent.requestPermission`. Others get a block in the chat file with the diff (`[editor] approvals`, docs/helix.md), or with `approvals = \"message\"` `window/showMessageRequest` with the actions `Yes`, `Yes, don't ask again`, `No`; a choice made there after the request was withdrawn (its timeout, the turn's cancel: some clients keep the box) runs nothing and is said in `window/showMessage` and the chat file. `accepted` lets a client that reviewed the diff hunk by hunk say which final text each file gets; the server applies that instead of the proposal, and the tool result tells the model, hunk by hunk, what the user declined (a file left at its old text: declined whole). A change whose every file is left at its old text is a rejection whatever the option, and a call of a joined review whose files were all left is declined while the others go ahead. `reason` is the user's own words, passed on to the model: with `reject`, with the refusal; with `allow_once` and `accepted`, about the parts they did not take (a client should send what was accepted rather than a bare `reject` when the user gives a reason after taking some files, so those files are not thrown away). An error, `null`, or no answer within `approval_timeout_s` counts as `reject`, and the model is told the action was not approved because no answer came (with the reason), never that the user declined it. `requestId` is this request's own id (random, never reused: see \"Request ids\" above); an answer should carry it back, and one that names another request is refused with a `window/showMessage` and counts as `reject`.",
    paramsText: "{ sessionId, requestId: string, toolCall: {id, name, title, input, toolKind?, locations?, command?, modelName?, modelInput?}, summary: string, diff?: string, files?: [{uri, oldText, newText}], options: [{optionId, name, kind}] }",
    result: "{ optionId: \"allow_once\" | \"allow_always\" | \"reject\", requestId?: string, accepted?: [{ uri, text }], reason?: string }",
    errors: [],
    example: {
      params: {
        sessionId: "s-mx2dissa-d770rr",
        requestId: "7f3c2a9e-0b41-4c6d-9a57-2e8d1f60b3c4",
        toolCall: { id: "toolu_01", name: "edit_file", title: "Edit src/main.ts", input: { path: "src/main.ts" } },
        summary: "edit_file src/main.ts (+1 -1)",
        diff: "--- a/src/main.ts\n+++ b/src/main.ts\n@@ -10 +10 @@\n-const x = 1\n+const x = 2\n",
        options: [
          { optionId: "allow_once", name: "Yes", kind: "allow_once" },
          { optionId: "allow_always", name: "Yes, don't ask again", kind: "allow_always" },
          { optionId: "reject", name: "No", kind: "reject_once" },
        ],
      },
      result: { optionId: "allow_once", requestId: "7f3c2a9e-0b41-4c6d-9a57-2e8d1f60b3c4" },
    },
  },
  {
    method: "agent/saveDocuments",
    direction: "server → client",
    kind: "request",
    summary:
      "Asks the editor to write the listed open documents to disk, exactly those (before a command runs: commands read the disk, and the agent's edits to open documents stay in the buffers until saved; config `[exec] save_before_commands`). Sent only to clients that declare `capabilities.experimental.agent.saveDocuments`; others are told nothing is saved, and the command's approval and result name the files whose agent changes it will not see. A URI missing from both lists, an error, or no answer within `apply_edit_timeout_s` counts as not saved.",
    paramsText: "{ uris: string[] }",
    result: "{ saved: string[], failed?: [{ uri, reason }] }",
    errors: [],
    example: {
      params: { uris: ["file:///work/app/src/main.ts"] },
      result: { saved: ["file:///work/app/src/main.ts"] },
    },
  },
  {
    method: "agent/languageService",
    direction: "server → client",
    kind: "request",
    summary:
      "Asks the editor's own language servers (never agent-lsp itself), for the language tools (`find_definition`, `find_references`, `rename_symbol`, `document_symbols`, `hover`, `get_diagnostics`, and the diagnostics appended after an edit). `method` is `textDocument/definition`, `textDocument/references`, `textDocument/hover`, `textDocument/documentSymbol`, `workspace/symbol`, `textDocument/prepareRename`, `textDocument/rename` or `textDocument/diagnostics`; `params` are that method's LSP params, and the result is the merged LSP result of every server the editor runs for the file (a list: the lists concatenated; hover: the contents joined; rename: one `WorkspaceEdit`, which the editor returns and does not apply: the agent applies it as one reviewed change set). `textDocument/diagnostics` is not LSP: params `{ uri?: string, waitMs?: number }`, result `{ diagnostics: [{ uri, range, severity?, message, source?, code? }], servers?: number, opened?: boolean, published?: boolean }`: the editor's current diagnostics of that file (of every open file without `uri`) from every source it has, and with `uri` how many language servers the editor has on the file. A file the editor has not loaded is opened without being shown (so its language servers attach) and the answer waits up to `waitMs` for their first report on it (`opened: true`; `published` says whether one came; the request's timeout grows by `waitMs`). `servers: 0` without diagnostics, or `published: false`, makes the tools say the file's diagnostics are unknown, never \"no errors\". Sent only for the methods a client declares in `capabilities.experimental.agent.languageService: string[]`; a tool whose methods are not declared is not offered. A file no server serves is an error whose message says so. An error, or no answer within `[tools] language_service_timeout_s` (5 s), is a tool result saying so.",
    paramsText: "{ method: string, params: object }",
    result: "the method's LSP result, merged across the editor's servers",
    errors: ["any error code when no language server of the editor serves the file, or the servers failed: the message (passed to the model) says which", "-32602 for a method the client does not serve"],
    example: {
      params: { method: "textDocument/references", params: { textDocument: { uri: "file:///work/app/src/main.ts" }, position: { line: 9, character: 6 }, context: { includeDeclaration: true } } },
      result: [{ uri: "file:///work/app/src/util.ts", range: { start: { line: 2, character: 16 }, end: { line: 2, character: 21 } } }],
    },
  },
  {
    method: "agent/askUser",
    direction: "server → client",
    kind: "request",
    summary:
      "Asks the user a question (the `ask_user_question` tool); sent only to clients that declare `capabilities.experimental.agent.askUser`, others get a block in the chat file, or with `[editor] approvals = \"message\"` `window/showMessageRequest` with the choices as actions; a question with choices that also takes free text gets both the box and the block, and the first answer counts. `requestId` as for `agent/requestPermission`: an answer naming another question is not taken.",
    paramsText: "{ sessionId, requestId: string, question: string, choices: string[], allowFreeText: boolean }",
    result: "{ answer: string, requestId?: string } or null",
    errors: [],
    example: {
      params: { sessionId: "s-mx2dissa-d770rr", requestId: "c1d9e5a2-6f70-4b3e-8d21-94a0b7e6f215", question: "Which test runner?", choices: ["vitest", "jest"], allowFreeText: true },
      result: { answer: "vitest", requestId: "c1d9e5a2-6f70-4b3e-8d21-94a0b7e6f215" },
    },
  },
];
