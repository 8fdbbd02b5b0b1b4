/**
 * The chat file's hints name the client's own way to the code-action menu (issue 30): space a
 * in Helix, M-x eglot-code-actions in eglot, gra in Neovim 0.11, :ALECodeAction in Vim's ALE
 * (which sends no clientInfo), and words that fit any editor for a client not known.
 */
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../helpers/wait.js";
import { blockIds, PLAIN, startChat, type ChatHarness } from "./chat-helpers.js";

let c: ChatHarness | undefined;
afterEach(async () => {
  await c?.h.dispose();
  c = undefined;
});

/** What Vim's ALE declares (autoload/ale/lsp.vim): no applyEdit, no code-action kinds. */
const ALE = {
  workspace: { applyEdit: false },
  textDocument: { codeAction: { dynamicRegistration: false, codeActionLiteralSupport: { codeActionKind: { valueSet: [] } } } },
} as ClientCapabilities;

describe("the chat file's hints", { timeout: 60_000 }, () => {
  it.each([
    ["Helix", { name: "helix", version: "25.07.1" }, PLAIN, "space a"],
    ["eglot", { name: "Eglot", version: "1.17" }, PLAIN, "M-x eglot-code-actions"],
    ["Neovim 0.11", { name: "Neovim", version: "0.11.2" }, PLAIN, "gra"],
    ["Neovim 0.10", { name: "Neovim", version: "0.10.4" }, PLAIN, ":lua vim.lsp.buf.code_action()"],
    ["an unknown client", { name: "some-editor" }, PLAIN, "your editor's code-action command"],
  ])("%s: the new file's preamble and an approval block name its code-action key", async (_name, clientInfo, capabilities, key) => {
    c = await startChat({ safety: "ask" }, capabilities, undefined, clientInfo);
    c.h.fake.enqueue({ toolCalls: [{ name: "write_file", input: { path: "a.txt", content: "one\n" } }] });
    await c.openWith("Write a.txt");
    expect(c.disk()).toContain(`pick the code action "Send to agent" (${key}).`);
    await c.execute("agent.send");
    await waitFor(() => blockIds(c!.text()).length === 1, 20_000);
    expect(c.text()).toContain(`Pick "Approve", "Approve, don't ask again" or "Reject" (${key}) on this block.`);
    if (key !== "space a") expect(c.text()).not.toContain("space a");
  });

  it("Vim's ALE, which sends no clientInfo, is told :ALECodeAction", async () => {
    c = await startChat({}, ALE);
    await c.execute("agent.openChat");
    expect(c.disk()).toContain('pick the code action "Send to agent" (:ALECodeAction).');
  });
});
