/** The tables about sessions and their turns: retries, tools, subagents, compaction, memory and project knowledge. */
import { z } from "zod";
import { key, optional, table } from "./schema-keys.js";

/** `[retry]`. */
export const retryTable = () => table({
    max_retries: key(z.number().int().nonnegative(), 4, "integer", "Retries after the first attempt."),
    initial_delay_ms: key(z.number().int().nonnegative(), 1000, "integer", "First backoff delay; doubles each retry, with jitter."),
    max_delay_ms: key(z.number().int().positive(), 30_000, "integer", "Longest backoff delay."),
    // Fractions allowed: tests (and impatient users) want less than a second.
    stream_idle_timeout_s: key(
      z.number().positive(),
      120,
      "number",
      "A model's response that sends nothing at all (no headers, no event, no keep-alive ping) for this many seconds counts as a broken connection: retried as above, else the turn ends with \"the model's stream sent nothing for 120 s\". Fractions allowed.",
    ),
});

/** `[tools]`. */
export const toolsTable = () => table({
    provider_native: key(
      z.boolean(),
      true,
      "boolean",
      "Give models their provider's own tool definitions where one exists: Anthropic's text editor (in place of read_file, write_file, edit_file) and bash (beside execute_command), OpenAI's apply_patch. Each native call is rewritten onto our tool before anything runs. A provider that rejects them gets our schemas for the rest of the session.",
    ),
    output_budget: key(z.number().int().positive(), 50_000, "integer", "Most characters of text one tool result may carry; the middle of a longer one is cut with a note."),
    profile: key(
      z.enum(["standard", "lite"]),
      "standard",
      "string",
      "`standard` offers every tool; `lite` offers the small core set (read, write, SEARCH/REPLACE edit, search, list, execute, ask, plan, checklist, completion) with shorter descriptions, for small local models. docs/tools.md lists each profile's tools.",
    ),
    computer: key(
      z.boolean(),
      false,
      "boolean",
      "Offer the `computer` tool: screenshots, mouse and keyboard of your real screen (Linux X11). Off by default because every screenshot goes to the model's provider. docs/tools.md says what it does and how it is gated. Only from your user config or the editor's settings.",
    ),
    language_service_timeout_s: key(
      z.number().positive().max(120),
      5,
      "number",
      "Seconds the editor's own language servers have to answer one request of the language tools (find_definition, find_references, rename_symbol...; docs/tools.md). A slower answer is a tool result saying so. Fractions allowed; at most 120.",
    ),
    diagnostics_after_edit: key(
      z.boolean(),
      true,
      "boolean",
      "After a change set lands, append the changed files' errors and warnings from the editor's language servers to the tool result (only with an editor that serves `textDocument/diagnostics`; docs/tools.md).",
    ),
    diagnostics_wait_ms: key(
      z.number().int().min(0).max(30_000),
      1500,
      "integer",
      "How long, at most, to wait after a change set lands for the editor's language servers to publish the changed files' diagnostics (at most 30000).",
    ),
});

/** `[subagents]`. */
export const subagentsTable = () => table({
    max_concurrent: key(z.number().int().positive(), 3, "integer", "Most subagents (`agent`, `use_subagents`) running at once across the server; the rest wait their turn."),
    max_turns: key(z.number().int().positive(), 25, "integer", "Most model calls in one subagent's run before it stops and returns what it has."),
});

/** `[compaction]`. */
export const compactionTable = () => table({
    auto_threshold_percent: key(
      z.number().int().min(1).max(100),
      85,
      "integer",
      "When the next model call would fill more than this percentage of the model's context window, the older history is first summarised into a checkpoint (nothing is deleted: `context_archive` reads it back).",
    ),
    default_context_window: key(z.number().int().positive(), 128_000, "integer", "Context window in tokens of models the built-in table does not know."),
    provider_native: key(
      z.boolean(),
      false,
      "boolean",
      "On Anthropic, hand the automatic trigger to the provider's server-side compaction (each request asks for it at the same threshold; its summary becomes the checkpoint) instead of summarising here. `compact_context` and `/compact` still run agent-lsp's own compaction. Other providers keep the automatic trigger.",
    ),
    summary_max_tokens: key(z.number().int().positive(), 4096, "integer", "Most tokens the model may write for a compaction's summary."),
});

/** `[memory]`. */
export const memoryTable = () => table({
    index_budget_chars: key(
      z.number().int().nonnegative(),
      4000,
      "integer",
      "Most characters of the memory index (each memory file's name and first line) put into the system prompt of a new session; 0 leaves it out.",
    ),
});

/** `[knowledge]`. */
export const knowledgeTable = () => table({
    rules_budget_tokens: key(
      z.number().int().nonnegative(),
      8000,
      "integer",
      "Most tokens (estimated, four characters each) the rule files (AGENTS.md, CLAUDE.md, `.agent-lsp/rules/*.md`) take in the system prompt; later files are cut first, with a note (docs/skills.md).",
    ),
    skill_catalog_budget_tokens: key(
      z.number().int().nonnegative(),
      1500,
      "integer",
      "Most tokens the skill catalog (one line per skill: name and description) takes in the system prompt; skills past it are counted, and `skill_list` names them all.",
    ),
});
