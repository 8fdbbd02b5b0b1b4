/**
 * The pure text engines behind the file tools: strings in, strings out, no I/O. Tools import
 * from here; the modules are split by job (see each file's header).
 */
export * from "./text.js";
export { MATCH_STEPS, STEP_DESCRIPTIONS, foldUnicode, normalizeLine, type MatchStep } from "./normalize.js";
export { findMatches, findLineRuns, splitTarget, type Match, type MatchResult, type TargetLines } from "./matcher.js";
export { findClosestRegion, type ClosestRegion } from "./closest.js";
export { editText, type EditRequest, type EditResult } from "./edit.js";
export {
  applySearchReplace,
  applySearchReplaceBlocks,
  parseSearchReplace,
  type BlockReport,
  type SearchReplaceBlock,
  type SearchReplaceResult,
} from "./search-replace.js";
export { parsePatch, parseV4AOperation, type V4AOperation } from "./patch-parse.js";
export type { Hunk, HunkLine, ParsePatchResult, PatchOp } from "./patch-types.js";
export { applyPatchOps, applyHunks, patchPaths, type ApplyPatchResult, type HunksResult, type PatchFileResult } from "./patch-apply.js";
export { replaceText, compileFindRegex, type ReplaceTextRequest, type ReplaceTextResult } from "./replace-text.js";
