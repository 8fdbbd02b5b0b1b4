/**
 * Driving the chat file (.agent-lsp/chat.md) in real Helix as a user does: open it with the
 * workspace command, write a prompt in the draft at the bottom, move to a block by searching
 * for its text, save it to read the whole buffer.
 */
import type { HelixSession } from "./helix-harness.js";
import { messageRow } from "./helix-harness.js";

/** Opens the chat file through `:lsp-workspace-command agent.openChat` (window/showDocument). */
export async function openChat(hx: HelixSession): Promise<string> {
  await hx.workspaceCommand("agent.openChat");
  return hx.waitForScreen((s) => s.includes("# Agent chat") && /chat\.md/.test(s), { what: "the chat file open in Helix" });
}

/**
 * Types `prompt` on a new last line of the open chat buffer (the draft, under the last
 * `## You`), as one burst (as fast as a paste or a quick typist), and returns to normal mode.
 * Helix sends such keystrokes' didChanges out of order; agent-lsp puts them back in version order.
 */
export async function writePrompt(hx: HelixSession, prompt: string): Promise<void> {
  await hx.sendKeys("g", "e", "o");
  await hx.waitForScreen((s) => / INS /.test(s), { what: "insert mode" });
  await hx.typeText(prompt);
  await hx.escape();
}

/** Puts the cursor on the next line containing `text` (Helix's search, `/text` Enter). */
export async function goToText(hx: HelixSession, text: string): Promise<void> {
  await hx.sendKeys("g", "g");
  await hx.sendKeys("/");
  await hx.waitForScreen((s) => messageRow(s).startsWith("search:"), { what: "the search prompt" });
  await hx.typeText(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  await hx.sendKeys("Enter");
  await hx.waitForScreen((s) => / NOR /.test(s) && !messageRow(s).startsWith("search:"), { what: `the cursor on "${text}"` });
}

/** Saves the chat buffer (`:w`) and returns its text from disk. */
export async function savedChat(hx: HelixSession): Promise<string> {
  await hx.escape();
  await hx.sendKeys(":");
  await hx.waitForScreen((s) => messageRow(s).startsWith(":"), { what: "the command prompt" });
  await hx.typeText("w");
  await hx.sendKeys("Enter");
  await hx.waitForScreen((s) => /written/.test(messageRow(s)), { what: "the chat file written" });
  return hx.read(".agent-lsp/chat.md");
}
