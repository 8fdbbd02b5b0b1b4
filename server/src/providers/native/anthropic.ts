/**
 * Anthropic's native tools (the text editor and bash, whose definitions Claude is trained on) and
 * the rewrite of each native call onto the agent-lsp tool that really runs it. The rewrite happens
 * before anything runs, so the policy gate, checkpoints and approvals see our tool as always; the
 * history keeps the call as the model wrote it (`ToolCallBlock.native`).
 *
 * Pure: no I/O. Whether a `view` path is a directory is asked through `RewriteOptions.isDirectory`.
 */

/** One Anthropic-defined tool as agent-lsp offers it. */
export interface AnthropicNativeTool {
  /** Our `NativeToolSpec.kind`. */
  kind: "anthropic_text_editor" | "anthropic_bash" | "anthropic_memory";
  /** The name the model calls it by (fixed by Anthropic for each `type`). */
  name: string;
  /** The versioned tool type the API takes. */
  type: string;
  /** Our tools this one stands in for: they are not offered while it is. */
  replaces: readonly string[];
}

/** The text editor: stands in for read_file, write_file and edit_file. */
export const ANTHROPIC_TEXT_EDITOR: AnthropicNativeTool = Object.freeze({
  kind: "anthropic_text_editor",
  name: "str_replace_based_edit_tool",
  // The newest text editor version @anthropic-ai/sdk knows.
  type: "text_editor_20250728",
  replaces: Object.freeze(["read_file", "write_file", "edit_file"]),
});

/** Bash: sits beside execute_command (which keeps its timeout and background modes), replacing nothing. */
export const ANTHROPIC_BASH: AnthropicNativeTool = Object.freeze({
  kind: "anthropic_bash",
  name: "bash",
  type: "bash_20250124",
  replaces: Object.freeze([]),
});

/**
 * The memory tool: stands in for our `memory`, whose commands and inputs are the same (paths under
 * `/memories/` name our stores: `/memories/project/...`, `/memories/user/...`).
 */
export const ANTHROPIC_MEMORY: AnthropicNativeTool = Object.freeze({
  kind: "anthropic_memory",
  name: "memory",
  type: "memory_20250818",
  replaces: Object.freeze(["memory"]),
});

/** Every Anthropic native tool agent-lsp knows. */
const ANTHROPIC_NATIVE_TOOLS: readonly AnthropicNativeTool[] = Object.freeze([ANTHROPIC_TEXT_EDITOR, ANTHROPIC_BASH, ANTHROPIC_MEMORY]);

/** The native tool with this `kind` (our NativeToolSpec.kind), if Anthropic has one. */
export function anthropicNativeToolByKind(kind: string): AnthropicNativeTool | undefined {
  return ANTHROPIC_NATIVE_TOOLS.find((t) => t.kind === kind);
}

/** The native tool the model calls by this name, if any. */
export function anthropicNativeToolByName(name: string): AnthropicNativeTool | undefined {
  return ANTHROPIC_NATIVE_TOOLS.find((t) => t.name === name);
}

/**
 * execute_command's longest foreground timeout: the bash tool has no timeout of its own, and a
 * model using it expects builds and test runs to finish.
 */
export const BASH_TIMEOUT_SECS = 600;

/**
 * What a native call becomes:
 * - `{name, input}`: run our tool `name` with `input`;
 * - `{error}`: answer the model with this error, run nothing;
 * - `{reply}`: answer the model with this (non-error) text, run nothing.
 */
export type NativeRewrite =
  | { name: string; input: Record<string, unknown> }
  | { error: string }
  | { reply: string };

/** What the rewrite may ask about the workspace. */
export interface RewriteOptions {
  /**
   * Whether `path` (as the model wrote it) names a directory; `view` of a directory lists it.
   * A path ending in `/` always counts as a directory.
   */
  isDirectory?: (path: string) => boolean;
  /** Whether `path` names anything at all; `create` never overwrites. */
  exists?: (path: string) => boolean;
}

/** Rewrites one call of the native tool `nativeName` onto our tool. */
export function rewriteAnthropicNative(nativeName: string, input: unknown, options: RewriteOptions = {}): NativeRewrite {
  if (!isRecord(input)) return { error: `${nativeName}: the input must be a JSON object.` };
  if (nativeName === ANTHROPIC_TEXT_EDITOR.name) return rewriteTextEditor(input, options);
  if (nativeName === ANTHROPIC_BASH.name) return rewriteBash(input);
  if (nativeName === ANTHROPIC_MEMORY.name) return rewriteMemory(input);
  return { error: `${nativeName} is not an Anthropic native tool agent-lsp knows.` };
}

function rewriteTextEditor(input: Record<string, unknown>, options: RewriteOptions): NativeRewrite {
  const { command, path } = input;
  if (typeof command !== "string") return { error: "The text editor needs a `command`: view, create, str_replace or insert." };
  if (command === "undo_edit") {
    return { error: "undo_edit is not available here. Fix the file with another edit; the user can undo your changes with /undo." };
  }
  if (typeof path !== "string" || path === "") return { error: `${command}: \`path\` is required.` };
  switch (command) {
    case "view":
      return rewriteView(path, input.view_range, options);
    case "create":
      if (typeof input.file_text !== "string") return { error: "create: `file_text` is required." };
      // The tool's own contract (and its reference implementation): create never overwrites.
      if (options.exists?.(path) === true) {
        return {
          error:
            `File already exists at: ${path}. Cannot overwrite files using command \`create\`. ` +
            "Use `str_replace` to change part of it (`view` it first); to replace all of it, `str_replace` with its whole current text as `old_str`.",
        };
      }
      return { name: "write_file", input: { path, content: input.file_text } };
    case "str_replace": {
      if (typeof input.old_str !== "string" || input.old_str === "") return { error: "str_replace: `old_str` is required and must not be empty." };
      const replacement = input.new_str ?? "";
      if (typeof replacement !== "string") return { error: "str_replace: `new_str` must be a string." };
      return { name: "edit_file", input: { path, target_content: input.old_str, replacement_content: replacement } };
    }
    case "insert": {
      const line = input.insert_line;
      // Older text editor versions called the inserted text `new_str`.
      const text = input.insert_text ?? input.new_str;
      if (!Number.isInteger(line) || (line as number) < 0) return { error: "insert: `insert_line` must be a line number (0 inserts at the top)." };
      if (typeof text !== "string") return { error: "insert: `insert_text` is required." };
      if (text === "") return { reply: `Nothing to insert: \`insert_text\` is empty, so ${path} is unchanged.` };
      return { name: "edit_file", input: { path, target_content: "", replacement_content: text, insert_line: line } };
    }
    default:
      return { error: `Unknown text editor command "${command}": use view, create, str_replace or insert.` };
  }
}

function rewriteView(path: string, range: unknown, options: RewriteOptions): NativeRewrite {
  const isDirectory = path.endsWith("/") || options.isDirectory?.(path) === true;
  // Two levels, without hidden entries (node_modules is never listed): what the tool's description promises.
  if (isDirectory) return { name: "list_files", input: { path, max_depth: 2, hidden: false } };
  if (range === undefined || range === null) return { name: "read_file", input: { path } };
  if (!Array.isArray(range) || range.length !== 2 || !range.every(Number.isInteger)) {
    return { error: "view: `view_range` must be two line numbers [start, end] (end -1 reads to the end)." };
  }
  const [start, end] = range as [number, number];
  if (start < 1) return { error: "view: lines are numbered from 1." };
  if (end === -1) return { name: "read_file", input: { path, start_line: start } };
  if (end < start) return { error: `view: the range [${start}, ${end}] ends before it starts.` };
  return { name: "read_file", input: { path, start_line: start, line_count: end - start + 1 } };
}

function rewriteBash(input: Record<string, unknown>): NativeRewrite {
  if (input.restart === true) {
    // Our commands each run in a fresh shell, so there is no session to restart.
    return { reply: "The shell was restarted. (Each command runs in a fresh shell; no state carries over.)" };
  }
  if (typeof input.command !== "string" || input.command.trim() === "") return { error: "bash: `command` is required." };
  return { name: "execute_command", input: { command: input.command, timeout_secs: BASH_TIMEOUT_SECS } };
}

/** Memory commands map one to one; only the command itself is checked here, our tool checks the rest. */
function rewriteMemory(input: Record<string, unknown>): NativeRewrite {
  const commands = ["view", "create", "str_replace", "insert", "delete", "rename"];
  if (typeof input.command !== "string" || !commands.includes(input.command)) {
    return { error: `memory: \`command\` must be one of ${commands.join(", ")}.` };
  }
  return { name: "memory", input };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
