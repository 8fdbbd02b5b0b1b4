/**
 * defineTool: the one way a built-in tool is made. It owns what every tool needs and no tool
 * should write twice: input validation (a bad input is a tool error the model can read and fix),
 * abort, output truncation with a note, and turning thrown errors into results.
 */
import { z } from "zod";
import { builtSchema } from "../util/lazy-schema.js";
import { StateFolderError } from "../util/state-folder.js";
import type { ContentBlock } from "../vocabulary/messages.js";
import type { ToolCallKind } from "../protocol/updates.js";
import type { PolicyClass } from "../vocabulary/policy.js";
import type { Capability, ToolContext, ToolResult } from "./types.js";

/**
 * What tool_help returns besides the schema: kept out of the description sent with every
 * request, so that can stay short.
 */
export interface ToolHelp {
  /** When this tool is the right one (and when another is). */
  whenToUse: string;
  /** Example inputs, as JSON. */
  examples: string[];
  /** How a call can fail and what to do then. */
  failureModes: string[];
}

/** What a tool author writes. */
export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  policyClass: PolicyClass;
  category: string;
  /** Defaults to true unless the class is read_only: when unsure, a tool is mutating. */
  isMutating?: boolean;
  /** What a call does, for the editor (read, edit, search...); by default from the policy class. */
  callKind?: ToolCallKind;
  hiddenFromAgent?: boolean;
  /** Older names a call may still use (never offered): they run this tool. */
  aliases?: readonly string[];
  metadata?: Record<string, unknown>;
  /** Shown by tool_help; see ToolHelp. */
  help?: ToolHelp;
  /** The description under the lite profile (default: the first sentence of `description`). */
  liteDescription?: string;
  title?(input: z.infer<S>): string;
  /** Returns a result, or a plain string for a successful text result. Throw ToolError to fail. */
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult | string>;
}

/** The kind of a call when its tool names none: what its class mostly does. */
const CALL_KIND_OF_CLASS: Record<PolicyClass, ToolCallKind> = {
  read_only: "read",
  read_write: "edit",
  exec: "execute",
  network: "fetch",
  external_api: "other",
  gui_control: "other",
};

/** An error whose message is meant for the model as an error result. */
export class ToolError extends Error {}

/** A successful text result. */
export function textResult(text: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { isError: false, content: [{ type: "text", text }], ...extra };
}

/** An error result with a message the model can act on. */
export function errorResult(text: string): ToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/** Each defined tool's input schema, for checking its help's examples (invalidExamples). */
const INPUT_SCHEMAS = new WeakMap<Capability, z.ZodType>();

/** The examples of a built-in tool's help that its own input schema refuses, each with why. */
export function invalidExamples(capability: Capability): string[] {
  const schema = INPUT_SCHEMAS.get(capability);
  const help = capability.metadata.help as ToolHelp | undefined;
  if (!schema || !help) return [];
  return help.examples.flatMap((example) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(example);
    } catch (err) {
      return [`${example}: not JSON (${(err as Error).message})`];
    }
    const result = schema.safeParse(parsed);
    return result.success ? [] : [`${example}: ${describeInvalidInput(capability.name, result.error)}`];
  });
}

/** Builds a Capability from a spec. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Capability {
  let schema: Record<string, unknown> | undefined;
  const capability: Capability = {
    name: spec.name,
    description: spec.description,
    // Converted on first use: start-up registers every tool but offers none until a turn runs.
    get inputSchema() {
      schema ??= toProviderSchema(spec.input);
      return schema;
    },
    kind: "builtin",
    policyClass: spec.policyClass,
    category: spec.category,
    hiddenFromAgent: spec.hiddenFromAgent ?? false,
    isMutating: spec.isMutating ?? spec.policyClass !== "read_only",
    metadata: {
      ...spec.metadata,
      ...(spec.help ? { help: spec.help } : {}),
      ...(spec.liteDescription ? { liteDescription: spec.liteDescription } : {}),
    },
    callKind: spec.callKind ?? CALL_KIND_OF_CLASS[spec.policyClass],
    ...(spec.aliases?.length ? { aliases: spec.aliases } : {}),
    title(input) {
      const parsed = spec.input.safeParse(input);
      if (parsed.success && spec.title) return spec.title(parsed.data);
      return spec.name;
    },
    async execute(input, ctx) {
      if (ctx.signal.aborted) return errorResult("Cancelled before it started.");
      const parsed = spec.input.safeParse(input ?? {});
      if (!parsed.success) return errorResult(describeInvalidInput(spec.name, parsed.error));
      try {
        const out = await spec.execute(parsed.data, ctx);
        const result = typeof out === "string" ? textResult(out) : out;
        return truncateResult(result, ctx.outputBudget);
      } catch (err) {
        if (ctx.signal.aborted) return errorResult("Cancelled.");
        if (err instanceof ToolError) return errorResult(err.message);
        // agent-lsp's own state cannot be written: no later call can do better, so the turn ends.
        if (err instanceof StateFolderError) return { ...errorResult(err.message), endTurn: true, fault: err.message };
        return errorResult(`${spec.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
  INPUT_SCHEMAS.set(capability, spec.input);
  return capability;
}

/** JSON Schema for providers: an object schema without the `$schema` marker. */
export function toProviderSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(builtSchema(schema), { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** One line per problem, each naming the field: the model fixes its call from this. */
export function describeInvalidInput(tool: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join(".") : "(input)";
    return `- ${field}: ${issue.message}`;
  });
  return `Invalid input for ${tool}:\n${lines.join("\n")}`;
}

/** Keeps text results within the budget: the head and the tail, with a note of what was cut. */
export function truncateResult(result: ToolResult, budget: number): ToolResult {
  let used = 0;
  const content: ContentBlock[] = result.content.map((block) => {
    if (block.type !== "text") return block;
    const room = Math.max(budget - used, 0);
    const text = truncateMiddle(block.text, room);
    used += text.length;
    return text === block.text ? block : { type: "text", text };
  });
  return { ...result, content };
}

/** Cuts the middle of `text` so it fits `max` characters, saying how much was dropped. */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(max - 80, 0);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const dropped = text.length - head - tail;
  return `${text.slice(0, head)}\n[... ${dropped} characters cut from the middle ...]\n${tail ? text.slice(-tail) : ""}`;
}
