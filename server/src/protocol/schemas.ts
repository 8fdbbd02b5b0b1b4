/**
 * Param schemas of the custom agent protocol. Every incoming custom request is validated with
 * these; docs/protocol.md is generated from the same definitions (protocol/methods.ts).
 */
import { z } from "zod";
import { SAFETY_MODES } from "../config/schema.js";

const position = z.object({ line: z.number().int().nonnegative(), character: z.number().int().nonnegative() });
const range = z.object({ start: position, end: position });

/** A prompt block: text, an image, or a reference to a resource (file) with optional text. */
const contentBlockSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image"), mimeType: z.string(), data: z.string() }),
  z.object({
    type: z.literal("resource"),
    uri: z.string(),
    text: z.string().optional(),
  }),
]);

const diagnostic = z
  .object({
    range,
    message: z.string(),
    severity: z.number().int().optional(),
    source: z.string().optional(),
    code: z.union([z.string(), z.number()]).optional(),
  })
  .passthrough();

export const newSessionParams = z.object({
  cwd: z.string().optional(),
  mode: z.enum(SAFETY_MODES).optional(),
  model: z.string().optional(),
});

export const promptParams = z.object({
  sessionId: z.string(),
  prompt: z.union([z.string(), z.array(contentBlockSchema)]),
  context: z
    .object({
      uri: z.string().optional(),
      range: range.optional(),
      diagnostics: z.array(diagnostic).optional(),
    })
    .optional(),
  /**
   * Edit and re-send: the session's last exchange (its last prompt and everything after it) leaves
   * the working history before this prompt runs. The log keeps it, marked rewound.
   */
  replaceLast: z.boolean().optional(),
});

export const cancelParams = z.object({ sessionId: z.string() });
export const listSessionsParams = z.object({}).passthrough();
export const loadSessionParams = z.object({ sessionId: z.string() });
export const setModeParams = z.object({ sessionId: z.string(), mode: z.enum(SAFETY_MODES) });
export const listCommandsParams = z.object({ sessionId: z.string() });
export const setModelParams = z.object({ sessionId: z.string(), model: z.string().min(1) });
export const listModelsParams = z.object({ sessionId: z.string() });
export const reloadConfigParams = z.object({
  env: z.record(z.string(), z.string().nullable()).optional().describe("Provider variables of the editor's environment (a key, a base URL); null unsets one"),
});
export const commandParams = z.object({
  sessionId: z.string(),
  command: z.string(),
  args: z.array(z.string()).optional(),
});

export type NewSessionParams = z.infer<typeof newSessionParams>;
export type PromptParams = z.infer<typeof promptParams>;
export type CancelParams = z.infer<typeof cancelParams>;
export type LoadSessionParams = z.infer<typeof loadSessionParams>;
export type SetModeParams = z.infer<typeof setModeParams>;
export type CommandParams = z.infer<typeof commandParams>;
export type PromptContentBlock = z.infer<typeof contentBlockSchema>;
export type Diagnostic = z.infer<typeof diagnostic>;
export type Range = z.infer<typeof range>;

/** Why a turn ended. */
export type StopReason = "end_turn" | "cancelled" | "max_turns" | "refusal" | "error" | "max_tokens";

/** Turns a zod failure into one message that names each bad field. */
export function describeParamsError(method: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join(".") : "params";
    return `${field}: ${issue.message}`;
  });
  return `Invalid params for ${method}: ${parts.join("; ")}`;
}
