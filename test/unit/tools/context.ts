/**
 * A ToolContext over a temp project with the fake editor, for running file tools directly.
 */
import type { Capability, ToolContext, ToolResult } from "../../../server/src/tools/types.js";
import type { GateDecision, GatedAction } from "../../../server/src/vocabulary/policy.js";
import { makeProject, type Project } from "../workspace/setup.js";

/** A project plus a way to call a tool in it. */
export interface ToolHarness extends Project {
  ctx: ToolContext;
  /** Runs `tool` with `input`; returns the result and its text. */
  run(tool: Capability, input: unknown): Promise<ToolResult & { text: string }>;
}

/** Makes a project and a context (session "s1", generous output budget). */
export function makeHarness(options: Parameters<typeof makeProject>[0] & { outputBudget?: number } = {}): ToolHarness {
  const project = makeProject(options);
  const controller = new AbortController();
  const ctx: ToolContext = {
    workspace: project.ws,
    editor: project.editor,
    sessionId: "s1",
    toolCallId: "call-1",
    signal: controller.signal,
    outputBudget: options.outputBudget ?? 100_000,
    authorize: (action: GatedAction): Promise<GateDecision> => project.authorize(action),
    progress: () => undefined,
    emit: (update) => void project.editor.updates.push({ sessionId: "s1", update }),
    services: {},
  };
  return Object.assign(project, {
    ctx,
    async run(tool: Capability, input: unknown) {
      const result = await tool.execute(input, ctx);
      const text = result.content.map((c) => (c.type === "text" ? c.text : `<${c.mediaType}>`)).join("\n");
      return { ...result, text };
    },
  });
}
