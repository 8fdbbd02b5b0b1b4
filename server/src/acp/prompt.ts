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

/** The slash command a prompt is, when it is one text block starting with `/name`. */
export function slashCommandOf(blocks: acp.ContentBlock[]): { command: string; args: string[] } | undefined {
  if (blocks.length !== 1 || blocks[0]!.type !== "text") return undefined;
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(blocks[0]!.text.trim());
  if (!match) return undefined;
  const args = match[2]!.trim();
  return { command: match[1]!, args: args ? args.split(/\s+/) : [] };
}
