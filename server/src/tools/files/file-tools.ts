/**
 * The file tools, in the order they are offered to a model. The server registers this list.
 */
import { applyPatchTool } from "./apply-patch.js";
import { createDirectoryTool } from "./create-directory.js";
import { deleteFileTool } from "./delete-file.js";
import { editFileTool } from "./edit-file.js";
import { listCodeDefinitionNamesTool } from "./list-code-definition-names.js";
import { listFilesTool } from "./list-files.js";
import { readFileTool } from "./read-file.js";
import { replaceInFileTool } from "./replace-in-file.js";
import { replaceTextTool } from "./replace-text.js";
import { searchFilesTool } from "./search-files.js";
import type { Capability } from "../types.js";
import { writeFileTool } from "./write-file.js";

/** Every file tool (category `file`). */
export const fileTools: Capability[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  replaceInFileTool,
  applyPatchTool,
  deleteFileTool,
  createDirectoryTool,
  listFilesTool,
  searchFilesTool,
  listCodeDefinitionNamesTool,
  replaceTextTool,
];
