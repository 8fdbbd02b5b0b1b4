/**
 * get_diagnostics: the editor's current diagnostics (every source it has: language servers,
 * linters) of one file, or of every file it has open.
 */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { defineTool } from "../define-tool.js";
import { countWords, diagnosticLines, diagnosticsOf } from "./diagnostics-format.js";
import { resolveForRead } from "../files/file-tool-support.js";
import { ask } from "./language-support.js";
import { unknownDiagnostics } from "./diagnostics-truth.js";
import { configFrom } from "../tool-config.js";

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const input = lazySchema(() => z.object({
  path: z.string().min(1).optional().describe("The file (relative to the project root, or absolute). Leave out for every file open in the editor."),
  errors_only: z.boolean().optional().describe("Only errors (no warnings, infos, hints). Default false."),
}));

/** Most diagnostics listed. */
const MAX_DIAGNOSTICS = 200;

/** The get_diagnostics tool. */
export const getDiagnosticsTool = defineTool({
  name: "get_diagnostics",
  description:
    "The editor's current diagnostics (errors, warnings... from its language servers and linters) of one file, or of every open file. " +
    "Answers path:line:column: severity [source] message, errors first.",
  input,
  policyClass: "read_only",
  category: "language",
  help: {
    whenToUse: "After an edit, or before finishing: the errors and warnings the editor's language servers and linters see.",
    examples: ['{"path": "src/app.ts"}', '{"errors_only": true}'],
    failureModes: [
      "A file no language server has open: the editor opens it unseen and waits for its servers' first report (diagnostics_wait_ms); when none has it, the result says its diagnostics are unknown (never \"no errors\"): run the project's checker with execute_command.",
    ],
  },
  callKind: "read",
  title: (a) => (a.path ? `Diagnostics of ${a.path}` : "Diagnostics of open files"),
  async execute(args, ctx) {
    const resolved = args.path === undefined ? undefined : await resolveForRead(ctx, args.path);
    // A file the editor has not open may be opened (unseen) and given this long for a first report.
    const params = resolved ? { uri: resolved.uri, waitMs: configFrom(ctx.services).tools.diagnostics_wait_ms } : {};
    const answer = await ask(ctx, "textDocument/diagnostics", params);
    const unknown = resolved && unknownDiagnostics(answer, resolved.rel);
    if (unknown) return `${capitalize(unknown)}. Do not take that as "no errors": check it another way (the project's compiler or linter with execute_command), or ask again once the file is open.`;
    const all = diagnosticsOf(answer);
    const shown = args.errors_only ? all.filter((d) => (d.severity ?? 1) === 1) : all;
    const where = resolved ? resolved.rel : "the open files";
    if (!shown.length) return `No ${args.errors_only ? "errors" : "diagnostics"} in ${where}.`;
    return [`${countWords(shown)} in ${where}:`, ...diagnosticLines(ctx.workspace.root, shown, MAX_DIAGNOSTICS)].join("\n");
  },
});
