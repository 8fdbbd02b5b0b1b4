/**
 * Commands read the disk, the agent's edits to open documents live in the buffers: before a
 * command runs, the buffers the agent changed and did not save are saved through
 * agent/saveDocuments (exactly those), as part of the approval in ask mode and said in the
 * result; an editor without the request gets told which files the command will not see.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientCapabilities } from "vscode-languageserver/node.js";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";
import { defaultCapabilities } from "../helpers/lsp-client.js";

let h: AgentHarness;
afterEach(async () => {
  await h?.dispose();
});

const SAVES = { ...defaultCapabilities(), experimental: { agent: { saveDocuments: true } } } as ClientCapabilities;
const at = (rel: string) => path.join(h.root, rel);
const uriOf = (rel: string) => pathToFileURL(at(rel)).href;

/** A project with a.txt open (as on disk) and b.txt open with the user's own unsaved text. */
async function start(options: { capabilities?: ClientCapabilities; safety?: string; save?: string } = {}): Promise<string> {
  const exec = options.save ? { exec: { save_before_commands: options.save } } : {};
  h = await startAgentHarness({
    options: { tools: { provider_native: false }, safety: options.safety ?? "full_access", ...exec },
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
  });
  writeFileSync(at("a.txt"), "old\n");
  writeFileSync(at("b.txt"), "b on disk\n");
  h.client.open(uriOf("a.txt"), "old\n");
  h.client.open(uriOf("b.txt"), "b typed by the user\n");
  h.client.script.showMessageRequest = () => "Yes";
  return h.newSession();
}

/** The model edits a.txt in the buffer, then runs `cat a.txt`; returns the command's result. */
async function editThenCat(sessionId: string): Promise<string> {
  h.fake.enqueue(
    { toolCalls: [{ name: "edit_file", input: { path: "a.txt", target_content: "old", replacement_content: "new" } }] },
    { toolCalls: [{ name: "execute_command", input: { command: "cat a.txt" } }] },
    { text: "Done." },
  );
  await h.prompt(sessionId, "change it and look");
  const messages = h.fake.requests.at(-1)!.body.messages as any[];
  const result = messages.at(-1).content.find((b: any) => b.type === "tool_result");
  return typeof result.content === "string" ? result.content : result.content.map((c: any) => c.text).join("\n");
}

const prompts = () => h.client.requests.filter((r) => r.method === "window/showMessageRequest").map((r) => r.params.message as string);
const saveRequests = () => h.client.requests.filter((r) => r.method === "agent/saveDocuments").map((r) => r.params.uris);

describe("saving before commands", () => {
  it("asks to save in the command's approval, saves exactly the agent's file, and the command sees it", async () => {
    const id = await start({ capabilities: SAVES, safety: "ask" });
    const result = await editThenCat(id);
    expect(prompts().at(-1)).toMatch(/^execute_command: cat a\.txt — (sandboxed|not sandboxed: [^—]+) — and save 1 file first: a\.txt$/);
    expect(saveRequests()).toEqual([[uriOf("a.txt")]]);
    expect(result).toMatch(/^Saved a\.txt before running the command\.\nExit code: 0 .*\n\nnew\n?$/s);
    expect(readFileSync(at("a.txt"), "utf8")).toBe("new\n");
    // The user's own unsaved buffer was left alone.
    expect(readFileSync(at("b.txt"), "utf8")).toBe("b on disk\n");
  });

  it("saves without a prompt in full_access and says so", async () => {
    const id = await start({ capabilities: SAVES });
    const result = await editThenCat(id);
    expect(result).toContain("Saved a.txt before running the command.");
    expect(result).toContain("new");
    expect(h.client.updatesOf("status").map((u) => u.text)).toContain("Saved a.txt before running the command.");
    // Saved once: the next command finds nothing unsaved.
    h.fake.enqueue({ toolCalls: [{ name: "execute_command", input: { command: "true" } }] }, { text: "ok" });
    await h.prompt(id, "again");
    expect(saveRequests()).toHaveLength(1);
  });

  it("names the unsaved files in the approval and the result when the editor cannot save them", async () => {
    const id = await start({ safety: "ask" });
    const result = await editThenCat(id);
    expect(prompts().at(-1)).toMatch(/^execute_command: cat a\.txt — (sandboxed|not sandboxed: [^—]+) — a\.txt has unsaved changes by the agent that the command will not see$/);
    expect(result).toMatch(/^Not saved \(this editor cannot save files on request\): a\.txt\. The command sees them as they are on disk, without your unsaved changes\.\n/);
    expect(result).toMatch(/\nold\n?$/);
    expect(saveRequests()).toEqual([]);
    expect(readFileSync(at("a.txt"), "utf8")).toBe("old\n");
  });

  it('saves nothing with save_before_commands = "never", and says so', async () => {
    const id = await start({ capabilities: SAVES, save: "never" });
    const result = await editThenCat(id);
    expect(result).toContain('Not saved (save_before_commands is "never"): a.txt.');
    expect(saveRequests()).toEqual([]);
  });

  it("reports a file the editor could not save", async () => {
    const id = await start({ capabilities: SAVES });
    h.client.script.saveDocuments = ({ uris }) => ({ saved: [], failed: uris.map((uri) => ({ uri, reason: "E212: Can't open file for writing" })) });
    const result = await editThenCat(id);
    expect(result).toContain("Could not save a.txt (E212: Can't open file for writing): the command sees its content on disk, without your unsaved changes.");
  });
});
