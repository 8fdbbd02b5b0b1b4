/**
 * The workspace commands agent-lsp advertises: every one to a client with the agent protocol;
 * to other clients only those their command palette can run (no arguments), plus agent.prompt
 * where the palette passes arguments (Helix 25.07 on).
 */
import { describe, expect, it } from "vitest";
import { advertisedCommands, EXECUTE_COMMANDS, PALETTE_COMMANDS } from "../../../server/src/lsp/capabilities.js";

describe("advertised commands", () => {
  it.each([
    ["a client with the agent protocol", { capabilities: { experimental: { agent: { requestPermission: true } } } }, [...EXECUTE_COMMANDS]],
    ["Helix 25.01", { capabilities: {}, clientInfo: { name: "helix", version: "25.01.1 (e7ac2fcd)" } }, [...PALETTE_COMMANDS]],
    ["Helix 25.07", { capabilities: {}, clientInfo: { name: "helix", version: "25.07.1" } }, [...PALETTE_COMMANDS, "agent.prompt"]],
    ["Emacs eglot", { capabilities: {}, clientInfo: { name: "Eglot", version: "1.17" } }, [...PALETTE_COMMANDS]],
    ["a client that says nothing", { capabilities: {} }, [...PALETTE_COMMANDS]],
  ])("%s", (_name, client, expected) => {
    expect(advertisedCommands(client)).toEqual(expected);
  });
});
