/** The client profile read at initialize, and messages laid out for a one-row message line. */
import { describe, expect, it } from "vitest";
import { clientProfile, oneRow } from "../../../server/src/lsp/client-profile.js";

describe("clientProfile", () => {
  it("Helix: one-row messages, no agent protocol", () => {
    expect(clientProfile({ clientInfo: { name: "helix", version: "25.07.1" }, capabilities: {} })).toEqual({ name: "helix", version: "25.07.1", agentProtocol: false, oneRowMessages: true, codeActionKey: "space a" });
  });

  it("a client declaring experimental.agent speaks the protocol; no clientInfo is an unnamed client", () => {
    expect(clientProfile({ capabilities: { experimental: { agent: { askUser: true } } } })).toEqual({ name: "", agentProtocol: true, oneRowMessages: false, codeActionKey: "your editor's code-action command" });
    expect(clientProfile({ clientInfo: { name: "Neovim" }, capabilities: {} }).oneRowMessages).toBe(false);
  });
});

describe("codeActionKey", () => {
  const ale = { workspace: { applyEdit: false }, textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: [] } } } } };
  it.each([
    ["Neovim 0.11", { clientInfo: { name: "Neovim", version: "0.11.0" }, capabilities: {} }, "gra"],
    ["Neovim 1.0", { clientInfo: { name: "Neovim", version: "1.0.0" }, capabilities: {} }, "gra"],
    ["Neovim 0.9", { clientInfo: { name: "Neovim", version: "0.9.5" }, capabilities: {} }, ":lua vim.lsp.buf.code_action()"],
    ["eglot", { clientInfo: { name: "Eglot", version: "1.17.30" }, capabilities: {} }, "M-x eglot-code-actions"],
    ["lsp-mode", { clientInfo: { name: "emacs", version: "GNU Emacs 30.1" }, capabilities: {} }, "M-x lsp-execute-code-action"],
    ["ALE (no clientInfo)", { capabilities: ale }, ":ALECodeAction"],
    ["a named client with ALE's capabilities", { clientInfo: { name: "other" }, capabilities: ale }, "your editor's code-action command"],
    ["no clientInfo, applyEdit declared", { capabilities: { workspace: { applyEdit: true } } }, "your editor's code-action command"],
  ])("%s", (_name, params, key) => {
    expect(clientProfile(params).codeActionKey).toBe(key);
  });
});

describe("oneRow", () => {
  it.each([
    ["paragraphs apart", "Agent: explain math.js:2: done, $0.0004\n\nHere is the answer.", "Agent: explain math.js:2: done, $0.0004 — Here is the answer."],
    ["lines of a paragraph joined by a space", "It returns a minus b.\nSo add() subtracts.", "It returns a minus b. So add() subtracts."],
    ["blank lines with spaces, a list", "done\n \nNot done:\n- Edit a.js: declined\n", "done — Not done: - Edit a.js: declined"],
    ["one line as it is", "agent-lsp: approval needed", "agent-lsp: approval needed"],
  ])("%s", (_name, message, shown) => {
    expect(oneRow(message)).toBe(shown);
  });
});
