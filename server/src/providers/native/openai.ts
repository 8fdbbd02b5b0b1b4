/**
 * OpenAI's native `apply_patch` tool (Responses API) and the rewrite of each `apply_patch_call`
 * onto our `apply_patch` tool. The model sends one file operation per call
 * (`create_file` / `update_file` / `delete_file` with a V4A diff); our tool takes a whole
 * `*** Begin Patch` envelope, so each operation becomes a one-file envelope. The gate, checkpoints
 * and approvals then see our apply_patch as always, while the history replays the call as the
 * model wrote it (`ToolCallBlock.native`) and answers it with an `apply_patch_call_output`.
 *
 * Pure: no I/O.
 */
import type { NativeRewrite } from "./anthropic.js";

/** The native apply_patch tool as agent-lsp offers it. */
export const OPENAI_APPLY_PATCH = Object.freeze({
  /** Our `NativeToolSpec.kind`. */
  kind: "openai_apply_patch",
  /** The name its calls carry on our side (the API's tool has no name of its own). */
  name: "apply_patch",
  /** The tool `type` the Responses API takes. */
  type: "apply_patch",
  /** Our tools this one stands in for: not offered while it is. */
  replaces: Object.freeze(["apply_patch"]),
});

/** One `apply_patch_call` operation. */
export interface ApplyPatchOperation {
  type: "create_file" | "update_file" | "delete_file";
  path: string;
  /** The V4A body: `+` lines for a new file, hunks for an update; absent for a delete. */
  diff?: string;
}

/** Rewrites one native apply_patch call (`input` is its `operation`) onto our apply_patch tool. */
export function rewriteOpenAIApplyPatch(operation: unknown): NativeRewrite {
  const checked = checkOperation(operation);
  if (typeof checked === "string") return { error: checked };
  return { name: OPENAI_APPLY_PATCH.name, input: { patch: operationToPatch(checked) } };
}

/** The `*** Begin Patch` envelope for one operation. */
function operationToPatch(op: ApplyPatchOperation): string {
  const body = bodyLines(op.diff ?? "");
  switch (op.type) {
    case "create_file":
      // The V4A Add body is `+` lines; a model that sent the bare file text gets them added.
      return envelope(`*** Add File: ${op.path}`, body.every((l) => l.startsWith("+")) ? body : body.map((l) => `+${l}`));
    case "update_file":
      return envelope(`*** Update File: ${op.path}`, body);
    case "delete_file":
      return envelope(`*** Delete File: ${op.path}`, []);
  }
}

function envelope(header: string, body: string[]): string {
  return ["*** Begin Patch", header, ...body, "*** End Patch", ""].join("\n");
}

/** The diff's lines, without the empty string a final newline leaves after splitting. */
function bodyLines(diff: string): string[] {
  const lines = diff.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The operation, or the error the model should read when it is malformed. */
function checkOperation(op: unknown): ApplyPatchOperation | string {
  if (typeof op !== "object" || op === null) return "apply_patch: the operation must be an object with type, path and diff.";
  const { type, path, diff } = op as Record<string, unknown>;
  if (type !== "create_file" && type !== "update_file" && type !== "delete_file") {
    return `apply_patch: unknown operation type ${JSON.stringify(type)}; use create_file, update_file or delete_file.`;
  }
  // A line break in the path would end the envelope's header line and corrupt the patch.
  if (typeof path !== "string" || path.trim() === "" || /[\r\n]/.test(path)) return `apply_patch ${type}: \`path\` must be a file path.`;
  if (type === "delete_file") return { type, path };
  if (typeof diff !== "string") return `apply_patch ${type}: \`diff\` is required.`;
  if (type === "update_file" && diff.trim() === "") return "apply_patch update_file: the diff is empty.";
  return { type, path, diff };
}
