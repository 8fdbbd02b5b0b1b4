/**
 * An ACP prompt as the core's prompt blocks: text and images as they are, a resource link as a
 * reference to the file (the Workspace reads it, unsaved buffer first), an embedded resource as
 * that file with the client's text. Audio is not offered (promptCapabilities), so it is refused.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AgentRequestError, ErrorCodes } from "../agent/errors.js";
import type { PromptContentBlock } from "../protocol/schemas.js";

/** Converts the blocks; throws InvalidParams for a block the agent does not take. */
export function toPromptBlocks(blocks: acp.ContentBlock[]): PromptContentBlock[] {
  return blocks.map((block, i): PromptContentBlock => {
    switch (block.type) {
      case "text":
        return { type: "text", text: block.text };
      case "image":
        return { type: "image", mimeType: block.mimeType, data: block.data };
      case "resource_link":
        return { type: "resource", uri: block.uri };
      case "resource":
        return "text" in block.resource
          ? { type: "resource", uri: block.resource.uri, text: block.resource.text }
          : // A binary resource cannot be read as text: the model gets the file to read itself.
            { type: "resource", uri: block.resource.uri };
      default:
        throw new AgentRequestError(ErrorCodes.InvalidParams, `prompt[${i}]: ${block.type} content is not supported (promptCapabilities says which is).`);
    }
  });
}

/**
 * The slash command a prompt is, when its first text block starts with `/name` (the spec's
 * available commands are sent as such a prompt; clients add context blocks around it, and a
 * client such as CodeCompanion sends the command after a text block of its own). The other
 * blocks go with the command as its context.
 */
export function slashCommandOf(blocks: acp.ContentBlock[]): { command: string; args: string[]; context: acp.ContentBlock[] } | undefined {
  const at = blocks.findIndex((b) => b.type === "text" && /^\s*\/\S/.test(b.text));
  if (at === -1) return undefined;
  // Only the first text block, or a text block right after one that holds no instruction of its own.
  const firstText = blocks.findIndex((b) => b.type === "text");
  if (at !== firstText && !(at === firstText + 1 && isShortLeadIn(blocks[firstText]!))) return undefined;
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec((blocks[at] as { text: string }).text.trim());
  if (!match) return undefined;
  const args = match[2]!.trim();
  return { command: match[1]!, args: args ? args.split(/\s+/) : [], context: blocks.filter((_, i) => i !== at) };
}

/** A text block before the command that is only a line of its own words ("please sleep"), not a prompt. */
function isShortLeadIn(block: acp.ContentBlock): boolean {
  return block.type === "text" && !block.text.includes("\n") && block.text.trim().length <= 80;
}
