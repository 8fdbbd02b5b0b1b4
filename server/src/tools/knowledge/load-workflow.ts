/** load_workflow: the steps of one of the project's workflows (`.agent-lsp/workflows/NAME.md`). */
import { z } from "zod";
import { lazySchema } from "../../util/lazy-schema.js";
import { listWorkflows, readWorkflow } from "../../knowledge/workflows.js";
import { defineTool, ToolError } from "../define-tool.js";

/** The load_workflow tool. */
export const loadWorkflowTool = defineTool({
  name: "load_workflow",
  description: "Load the steps of one of the project's workflows (.agent-lsp/workflows/NAME.md) to follow them. Without a name, lists the workflows.",
  input: lazySchema(() => z.object({ name: z.string().optional().describe("The workflow's name (its file name without .md).") })),
  policyClass: "read_only",
  category: "system",
  help: {
    whenToUse: "To follow one of the project's workflows (a step list in .agent-lsp/workflows/) when the task matches it.",
    examples: ['{"name": "ship"}', "{}"],
    failureModes: ["An unknown name is an error listing the workflows there are.", "A file that is not UTF-8 is named in the error."],
  },
  title: (i) => (i.name ? `Workflow ${i.name}` : "Workflows"),
  async execute(i, ctx) {
    if (!i.name) {
      const all = listWorkflows(ctx.workspace.root);
      return all.length ? all.map((w) => `- ${w.name}: ${w.summary}`).join("\n") : "The project has no workflows (.agent-lsp/workflows/*.md).";
    }
    try {
      const { file, steps } = readWorkflow(ctx.workspace.root, i.name);
      return `Workflow ${i.name} (${file}):\n\n${steps}`;
    } catch (err) {
      throw new ToolError((err as Error).message);
    }
  },
});
