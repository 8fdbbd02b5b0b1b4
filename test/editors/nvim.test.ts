/**
 * The Neovim plugin in real headless Neovim (0.7 from bookworm, 0.10 from trixie, 0.12 from
 * sid), driving the built server against the fake provider. Each case runs one Lua spec of
 * test/editors/nvim/ on each of the three and then checks what the model was sent and what
 * reached the disk. A Neovim that is not
 * installed skips its cases, or fails them under AGENT_LSP_REQUIRE_ALL=1 (CI).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createServer, type AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { MODERN, nodeServer } from "../helpers/mcp/servers.js";
import { expectPassed, findEditors, runSpec, SERVER_BUNDLE, type NvimEditor } from "./nvim-harness.js";
import { lastUserText, useSpecFixture } from "./run-detached.js";
import { enqueueToyTurns, expectToyResults, toolResultText, TOY_FILES, TOY_MAIN } from "../helpers/toy-lsp/scenario.js";
import { TOY_SERVER_SCRIPT } from "../helpers/toy-lsp/toy-server.js";

const TIMEOUT = 90_000;

/** Binds `port` (0: any) on 127.0.0.1 and closes it again: the port it got. */
function bindAndClose(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A local port nothing listens on, 403xx where one is free: a base URL holding "403" must still
 * read as unreachable, not as a refused key (the hint once matched the port).
 */
async function closedPort(): Promise<number> {
  for (let port = 40300; port < 40400; port++) {
    const bound = await bindAndClose(port).catch(() => undefined);
    if (bound) return bound;
  }
  return bindAndClose(0);
}
const requireAll = process.env.AGENT_LSP_REQUIRE_ALL === "1";

beforeAll(() => {
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build first`);
});

const setup = useSpecFixture();

function nvimCases(editor: NvimEditor): void {
  it("commands: <C-x><C-o> completes / commands from agent/listCommands, MCP prompts included; one sends the prompt's text", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    fake.enqueue({ text: "Reviewed." });
    const serverOptions = { mcp_servers: { notes: nodeServer(MODERN) }, mcp: { discover_timeout_s: 10 } };
    expectPassed(await runSpec(editor, "commands_spec.lua", { fake, project, serverOptions }), "commands_spec.lua");
    expect(lastUserText(fake, 0)).toContain("Please review this code for naming:\\nx = 1");
    expect(fake.violations).toEqual([]);
  });

  it("model: :AgentModel completes the callable providers' models (agent/listModels) and switches the session (agent/setModel)", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    fake.enqueue({ text: "On opus." });
    expectPassed(await runSpec(editor, "model_spec.lua", { fake, project }), "model_spec.lua");
    expect(fake.requests.map((r) => r.body.model)).toEqual(["claude-opus-4-1"]);
  });

  it("chat: streams the answer, shows usage, folds each tool call with its status (and keeps them folded as their headers change)", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    const answer = "Hello from the fake model, streamed in small pieces.";
    fake.enqueue(
      { text: answer, usage: { input: 12, output: 5 }, chunkSize: 4, chunkDelayMs: 40 },
      {
        toolCalls: [
          { name: "no_such_tool", input: { path: "missing.txt" } },
          { name: "no_such_tool", input: { path: "other.txt" } },
        ],
      },
      { text: "Done with tools." },
    );
    expectPassed(await runSpec(editor, "chat_spec.lua", { fake, project, data: { answer } }), "chat_spec.lua");
    expect(lastUserText(fake, 0)).toContain("Say hello");
    expect(fake.requests).toHaveLength(3);
    expect(fake.violations).toEqual([]);
  });

  it("compaction: a marker in the chat where the history was summarised; :AgentContext shows /context", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    fake.enqueue({ text: "First answer.", usage: { input: 179_000, output: 1000 } }, { text: "SUMMARY of the first task." }, { text: "Second answer." });
    expectPassed(await runSpec(editor, "compaction_spec.lua", { fake, project }), "compaction_spec.lua");
    expect(fake.requests).toHaveLength(3);
    expect(JSON.stringify(fake.requests[2]!.body.messages)).toContain("SUMMARY of the first task.");
    expect(fake.violations).toEqual([]);
  });

  it("long work: the checklist at the top, a subagent's steps under its call, a phase report, the result", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    fake.enqueue(
      { toolCalls: [{ name: "task_create", input: { tasks: ["Read the parser", "Fix the bug"] } }] },
      { toolCalls: [{ name: "task_update", input: { id: "1", status: "completed" } }] },
      { toolCalls: [{ name: "agent", input: { prompt: "Find the parser.", description: "find the parser" } }] },
      { toolCalls: [{ name: "list_files", input: {} }] },
      { text: "The parser is in src/parse.ts." },
      { toolCalls: [{ name: "phase_report", input: { completed: "Parser read", verification: "found the off-by-one", next_phase: "Fix it" } }, { name: "working_respond", input: { message: "Now fixing the bug." } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Fixed the off-by-one.", command: "npm test" } }] },
    );
    expectPassed(await runSpec(editor, "long_work_spec.lua", { fake, project }), "long_work_spec.lua");
    expect(fake.requests).toHaveLength(7);
    expect(fake.violations).toEqual([]);
  });

  it("edit: a tool call edits the open unsaved buffer, undo restores it, the disk stays", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "alpha\nbeta\ngamma\n" });
    fake.enqueue(
      { toolCalls: [{ name: "edit_file", input: { path: "notes.txt", target_content: "beta", replacement_content: "BETA from the agent" } }] },
      { text: "Edited." },
    );
    expectPassed(await runSpec(editor, "edit_spec.lua", { fake, project }), "edit_spec.lua");
    // The tool read the editor's unsaved text, not the disk's.
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).not.toContain("is_error\":true");
    expect(readFileSync(project.file("notes.txt"), "utf8")).toBe("alpha\nbeta\ngamma\n");
    expect(fake.violations).toEqual([]);
  });

  it("save: before a command the buffer the agent changed is written, and only it", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "alpha\nbeta\ngamma\n", "other.txt": "one\ntwo\n" });
    fake.enqueue(
      { toolCalls: [{ name: "edit_file", input: { path: "notes.txt", target_content: "beta", replacement_content: "BETA from the agent" } }] },
      { toolCalls: [{ name: "execute_command", input: { command: "cat notes.txt" } }] },
      { text: "Shown." },
    );
    expectPassed(await runSpec(editor, "save_spec.lua", { fake, project }), "save_spec.lua");
    // The command read the disk after the save: it saw the agent's change.
    const results = JSON.stringify(fake.requests[2]!.body.messages.at(-1));
    expect(results).toContain("Saved notes.txt before running the command.");
    expect(results).toContain("BETA from the agent");
    expect(readFileSync(project.file("other.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("language: the model's find_references is answered by a second real language server through the plugin; a two-file rename is reviewed and applied; an edit's new error comes back in its result", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ ...TOY_FILES, "notes.txt": "plain text\n" });
    enqueueToyTurns(fake);
    const data = { node: process.execPath, toy_server: TOY_SERVER_SCRIPT };
    expectPassed(await runSpec(editor, "language_spec.lua", { fake, project, safety: "ask", data }), "language_spec.lua");
    expectToyResults(fake);
    // Open files change in their buffers only.
    expect(readFileSync(project.file("main.toy"), "utf8")).toBe(TOY_MAIN);
    expect(fake.violations).toEqual([]);
  });

  it("install: the README's lazy.nvim spec builds the server on first start (a local dir plugin never gets its build run) and lists every command", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "notes\n" });
    expectPassed(await runSpec(editor, "readme_lazy_spec.lua", { fake, project }), "readme_lazy_spec.lua");
  });

  it("recovery: a key set in Neovim after the server started works on :AgentRetry and :checkhealth agrees; :AgentRestart keeps the chat and reloads its session", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "notes\n" });
    fake.enqueue({ text: "Keyed now." }, { text: "After the restart." });
    expectPassed(await runSpec(editor, "recover_key_spec.lua", { fake, project }), "recover_key_spec.lua");
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.headers.authorization ?? fake.requests[0]!.headers["x-api-key"]).toContain("sk-ant-set-in-neovim-0000");
    // The restarted server loaded the session: the model saw the first exchange again.
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("Keyed now.");
  });

  it("recovery: one chat window per tab whatever stopped the server: killed (the session offered, restarted for the chat's root), stopped as :LspStop does (back by :AgentChat from the code, a file opened, :AgentRetry), :lsp restart on 0.12", { timeout: 150_000 }, async () => {
    const { fake, project } = await setup({ "notes.txt": "notes\n", "other.txt": "other\n" });
    fake.enqueue({ text: "One." }, { text: "Two." }, { text: "Three." }, { text: "Four." }, { text: "Five." }, { text: "Six." });
    expectPassed(await runSpec(editor, "recover_crash_spec.lua", { fake, project, timeoutMs: 140_000 }), "recover_crash_spec.lua");
    // Each later turn went to a server that had loaded the session: the model saw it all.
    expect(JSON.stringify(fake.requests[2]!.body.messages)).toContain("Two.");
    expect(JSON.stringify(fake.requests[4]!.body.messages)).toContain("Four.");
    expect(lastUserText(fake, 4)).toContain("Fourth"); // :AgentRetry sent the last prompt again
    expect(fake.violations).toEqual([]);
  });

  it("diagnostics: a file Neovim has not loaded is opened unseen and its language server's error reaches the model; a file no server serves is 'unknown', never 'no errors'", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "notes\n", "broken.toy": "def x = nowhere\n", "other.txt": "plain\n" });
    fake.enqueue(
      { toolCalls: [{ name: "get_diagnostics", input: { path: "broken.toy" } }] },
      { text: "One error." },
      { toolCalls: [{ name: "get_diagnostics", input: { path: "other.txt" } }] },
      { text: "Unknown then." },
    );
    const data = { node: process.execPath, toy_server: TOY_SERVER_SCRIPT };
    expectPassed(await runSpec(editor, "diagnostics_spec.lua", { fake, project, data, serverOptions: { tools: { diagnostics_wait_ms: 10_000 } } }), "diagnostics_spec.lua");
    expect(toolResultText(fake, 1)).toBe("1 error in broken.toy:\nbroken.toy:1:9: error [toy] unknown name 'nowhere'");
    expect(toolResultText(fake, 3)).toMatch(/^Unknown: no language server has other\.txt open, so its errors are not known\./);
    expect(fake.violations).toEqual([]);
  });

  it("root: .git beats a nearer .agent-lsp, a language server's root a further one; a stray .agent-lsp in the home is no root", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/sub/.agent-lsp/rules/.keep": "",
      "repo/sub/x.txt": "x\n",
      ".agent-lsp/rules/.keep": "",
      "pkg/src/y.toy": "def y = 1\n",
    });
    mkdirSync(path.join(project.home, ".agent-lsp"), { recursive: true });
    mkdirSync(path.join(project.home, "notes"), { recursive: true });
    writeFileSync(path.join(project.home, "notes/a.txt"), "a\n");
    const homeBefore = readdirSync(project.home).sort();
    const data = { node: process.execPath, toy_server: TOY_SERVER_SCRIPT, home: project.home };
    expectPassed(await runSpec(editor, "root_spec.lua", { fake, project, data }), "root_spec.lua");
    // The plugin and its servers created nothing in the home beyond what Neovim keeps there.
    expect(readdirSync(project.home).filter((f) => !homeBefore.includes(f) && !f.startsWith(".") && !["nvim.log", "init-options.json"].includes(f))).toEqual([]);
    expect(readdirSync(path.join(project.home, ".agent-lsp"))).toEqual([]);
  });

  it("review: ask mode opens the diff review; one hunk of two is accepted; q asks after a hunk was taken, gR rejects with a reason; ga takes all", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const { fake, project } = await setup({ "app.txt": `${lines.join("\n")}\n` });
    const proposal = lines.map((l, i) => (i === 1 || i === 8 ? `${l} changed` : l));
    fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "app.txt" } }] },
      { toolCalls: [{ name: "write_file", input: { path: "app.txt", content: `${proposal.join("\n")}\n` } }] },
      { text: "Changed what you accepted." },
      { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "line 5", replacement_content: "line five" } }] },
      { text: "Understood." },
      { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "line 7", replacement_content: "line seven" } }] },
      { text: "Took it." },
    );
    expectPassed(await runSpec(editor, "review_spec.lua", { fake, project, safety: "ask" }), "review_spec.lua");
    // The model was told the rejection; the disk never changed (the file is open in the editor).
    expect(JSON.stringify(fake.requests[4]!.body.messages.at(-1))).toMatch(/reject|declin|denied|refus/i);
    expect(JSON.stringify(fake.requests[4]!.body.messages.at(-1))).toContain("keep line 5 as it is");
    // The partial accept of the first review is told hunk by hunk.
    expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toContain("declined part of it");
    expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toContain("app.txt line 9");
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe(`${lines.join("\n")}\n`);
    expect(fake.requests).toHaveLength(7);
    expect(fake.violations).toEqual([]);
  });

  it("review: gh takes a whole hunk (three changed lines and an added one) whatever 'diffopt' splits, moves to the next hunk not taken; finishing with hunks left says so", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    const { fake, project } = await setup({ "app.txt": `${lines.join("\n")}\n` });
    const first = [...lines.slice(0, 1), "two", "three", "four", "four and a half", ...lines.slice(4, 8), "line 9 changed", ...lines.slice(9)];
    const taken = [...first.slice(0, 9), "line 9", ...first.slice(10)];
    const second = ["line one", ...taken.slice(1, -1), "line twelve"];
    const write = (content: string[]) => ({ toolCalls: [{ name: "write_file", input: { path: "app.txt", content: `${content.join("\n")}\n` } }] });
    fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "app.txt" } }] },
      write(first),
      { text: "Reworked what you took." },
      { toolCalls: [{ name: "read_file", input: { path: "app.txt" } }] },
      write(second),
      { text: "Both ends changed." },
    );
    expectPassed(await runSpec(editor, "review_hunks_spec.lua", { fake, project, safety: "ask" }), "review_hunks_spec.lua");
    // The first review was a partial accept: the model is told which hunk was declined.
    expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toContain("declined part of it");
    expect(fake.requests).toHaveLength(6);
    expect(fake.violations).toEqual([]);
  });

  it("review: u past the fill keeps the file's text, an emptied result is asked about, nothing taken is declined, :AgentCancel works from the review tab", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const { fake, project } = await setup({ "app.txt": `${lines.join("\n")}\n` });
    const change = { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "line 2", replacement_content: "line 2 changed" } }] };
    fake.enqueue(change, { text: "Left it." }, change, { text: "never sent" });
    expectPassed(await runSpec(editor, "review_undo_spec.lua", { fake, project, safety: "ask" }), "review_undo_spec.lua");
    const declined = JSON.stringify(fake.requests[1]!.body.messages.at(-1));
    expect(declined).toContain("The user declined edit_file: app.txt");
    expect(declined).not.toContain("No changes");
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe(`${lines.join("\n")}\n`);
    expect(fake.requests).toHaveLength(3);
  });

  it("review: typing in the chat as the review opens: it opens in normal mode and takes none of the keys", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const { fake, project } = await setup({ "app.txt": `${lines.join("\n")}\n` });
    // The answer streams slowly first: the spec is back in insert mode before the review comes.
    const change = { name: "edit_file", input: { path: "app.txt", target_content: "line 2", replacement_content: "line 2 changed" } };
    fake.enqueue({ text: "Changing line 2 now.", chunkSize: 2, chunkDelayMs: 60, toolCalls: [change] }, { text: "Changed." });
    expectPassed(await runSpec(editor, "review_typing_spec.lua", { fake, project, safety: "ask" }), "review_typing_spec.lua");
  });

  it("review: in a three-file set a file finished with nothing taken is declined, and gR keeps the file already accepted", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "notes\n", "a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n" });
    const edit = (path: string, from: string, to: string) => ({ name: "edit_file", input: { path, target_content: from, replacement_content: to } });
    fake.enqueue({ text: "Uppercasing them.", toolCalls: [edit("a.txt", "alpha", "ALPHA"), edit("b.txt", "beta", "BETA"), edit("c.txt", "gamma", "GAMMA")] }, { text: "Applied a.txt only." });
    expectPassed(await runSpec(editor, "review_set_spec.lua", { fake, project, safety: "ask" }), "review_set_spec.lua");
    const results = (fake.requests[1]!.body.messages.at(-1) as { content: { type: string; content: { text: string }[]; is_error?: boolean }[] }).content.filter((b) => b.type === "tool_result");
    const texts = results.map((r) => r.content.map((c) => c.text).join(""));
    expect(results.map((r) => r.is_error === true)).toEqual([false, true, true]);
    expect(texts[1]).toContain("took none of it");
    expect(texts[2]).toContain('The user said: "keep b and c as they are"');
    expect(readFileSync(project.file("a.txt"), "utf8")).toBe("ALPHA\n");
    expect(fake.violations).toEqual([]);
  });

  it("review: a two-file change is reviewed in one tab with the explanation on top; ]f/[f, <CR> and gy", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const { fake, project } = await setup({ "a.txt": `${lines.join("\n")}\n`, "b.txt": "alpha\nbeta\ngamma\n" });
    const patch = [
      "*** Begin Patch",
      "*** Update File: a.txt",
      "@@",
      " line 1",
      "-line 2",
      "+line 2 changed",
      " line 3",
      "@@",
      " line 8",
      "-line 9",
      "+line 9 changed",
      " line 10",
      "*** Update File: b.txt",
      "@@",
      " alpha",
      "-beta",
      "+BETA",
      " gamma",
      "*** End Patch",
    ].join("\n");
    fake.enqueue({ text: "I will patch both files.", toolCalls: [{ name: "apply_patch", input: { patch } }] }, { text: "Patched." });
    expectPassed(await runSpec(editor, "review_files_spec.lua", { fake, project, safety: "ask" }), "review_files_spec.lua");
    expect(readFileSync(project.file("b.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    expect(readFileSync(project.file("a.txt"), "utf8")).toBe(`${lines.join("\n")}\n`); // open: changed in the buffer only
  });

  it("review: two calls of one message changing two files are reviewed together in the same tab", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const { fake, project } = await setup({ "a.txt": `${lines.join("\n")}\n`, "b.txt": "alpha\nbeta\ngamma\n" });
    const patchOf = (file: string, hunks: string[]) => ["*** Begin Patch", `*** Update File: ${file}`, ...hunks, "*** End Patch"].join("\n");
    const patchA = patchOf("a.txt", ["@@", " line 1", "-line 2", "+line 2 changed", " line 3", "@@", " line 8", "-line 9", "+line 9 changed", " line 10"]);
    const patchB = patchOf("b.txt", ["@@", " alpha", "-beta", "+BETA", " gamma"]);
    fake.enqueue({ text: "I will patch both files.", toolCalls: [{ name: "apply_patch", input: { patch: patchA } }, { name: "apply_patch", input: { patch: patchB } }] }, { text: "Patched." });
    expectPassed(await runSpec(editor, "review_files_spec.lua", { fake, project, safety: "ask" }), "review_files_spec.lua (two calls)");
    expect(readFileSync(project.file("b.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("declined part of it");
  });

  it("permission: a prompt without files is a vim.ui.select; don't ask again sticks, a refusal's reason reaches the model", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    const run = (command: string) => ({ toolCalls: [{ name: "execute_command", input: { command } }] });
    fake.enqueue(run("echo from-the-agent"), run("echo from-the-agent"), { text: "Ran it twice." }, run("printf other"), { text: "Not run." }, run("printf third"), { text: "Dismissed." });
    expectPassed(await runSpec(editor, "permission_spec.lua", { fake, project, safety: "ask" }), "permission_spec.lua");
    const results = JSON.stringify(fake.requests[2]!.body.messages.at(-1));
    expect(results).toContain("from-the-agent");
    expect(JSON.stringify(fake.requests[4]!.body.messages.at(-1))).toMatch(/declined|not done/i);
    expect(JSON.stringify(fake.requests[4]!.body.messages.at(-1))).toContain('The user said: \\"use echo instead\\"');
    // Dismissed: the model hears no answer came, never that the user declined.
    const dismissed = JSON.stringify(fake.requests[6]!.body.messages.at(-1));
    expect(dismissed).toContain("gave no answer");
    expect(dismissed).not.toMatch(/user declined/i);
  });

  it("native: a provider-native call shows the model's tool name in its approval and fold, and its own input keys", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "one\ntwo\n" });
    fake.enqueue(
      { toolCalls: [{ name: "bash", input: { command: "echo native" } }] },
      { toolCalls: [{ name: "str_replace_based_edit_tool", input: { command: "view", path: "notes.txt" } }] },
      { text: "Native done." },
    );
    expectPassed(await runSpec(editor, "native_spec.lua", { fake, project, safety: "ask" }), "native_spec.lua");
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("native");
    expect(fake.violations).toEqual([]);
  });

  it("status: a spinner until the first token, status() during a turn, a pending approval shown", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue(
      { text: "Slowly said.", usage: { input: 12, output: 5 }, stall: { afterEvents: 0, forMs: 1500 } },
      { toolCalls: [{ name: "execute_command", input: { command: "echo waiting-for-you" } }] },
      { text: "Ran it." },
    );
    expectPassed(await runSpec(editor, "status_spec.lua", { fake, project, safety: "ask" }), "status_spec.lua");
  });

  it("chat window: toggles, reuses its window, marks role headers, ]]/[[ between turns, <C-s> sends, float", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ text: "## Plan\n\n1. Look." }, { text: "Second answer." }, { text: "Third answer." });
    expectPassed(await runSpec(editor, "chat_window_spec.lua", { fake, project }), "chat_window_spec.lua");
    expect(lastUserText(fake, 2)).toContain("Sent from insert mode");
  });

  it("history: <Up>/<Down> walk the prompts, :AgentRetry and <C-r> send the last again, /new and /clear", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ text: "One." }, { text: "Two." }, { text: "Three." }, { text: "Four." });
    expectPassed(await runSpec(editor, "history_spec.lua", { fake, project }), "history_spec.lua");
    expect(fake.requests).toHaveLength(4);
    expect(lastUserText(fake, 2)).toContain("second prompt");
    expect(lastUserText(fake, 3)).toContain("second prompt");
  });

  it("edit: :AgentEdit and <C-e> edit the last prompt; sending it replaces the last exchange, for the model too", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ text: "Answer one." }, { text: "Answer two." }, { text: "Answer three." }, { text: "Answer four." });
    expectPassed(await runSpec(editor, "edit_last_spec.lua", { fake, project }), "edit_last_spec.lua");
    expect(fake.requests).toHaveLength(4);
    const sent = (i: number) => JSON.stringify(fake.requests[i]!.body.messages);
    // The edit went out without the exchange it replaced; the prompt after it keeps the edit.
    expect(sent(2)).toContain("first prompt");
    expect(sent(2)).not.toContain("badly put");
    expect(sent(2)).not.toContain("Answer two.");
    expect(lastUserText(fake, 2)).toContain("second prompt, well put");
    expect(sent(3)).toContain("second prompt, well put");
    expect(sent(3)).toContain("Answer three.");
    expect(sent(3)).not.toContain("badly put");
  });

  it("input undo: u and <C-r> in the input undo and redo only your typing, even while an answer streams", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    const answer = "Streamed slowly, in many small pieces, while you type below.";
    fake.enqueue({ text: answer, chunkSize: 4, chunkDelayMs: 60 }, { text: "Again." });
    expectPassed(await runSpec(editor, "input_undo_spec.lua", { fake, project, data: { answer } }), "input_undo_spec.lua");
    expect(fake.requests).toHaveLength(2);
    expect(lastUserText(fake, 1)).toContain("Stream something");
  });

  it("completion sources: with nvim-cmp and blink.cmp present, each gets an agent_lsp source for the chat's #, @ and / words", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n", "src/helper.txt": "helper\n", "build.log": "x\n", ".gitignore": "*.log\n" });
    expectPassed(await runSpec(editor, "complete_sources_spec.lua", { fake, project }), "complete_sources_spec.lua");
  });

  it("errors: a refused key names its source, a refused connection its URL, a missing server its fix once", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
    expectPassed(await runSpec(editor, "errors_spec.lua", { fake, project, data: { phase: "auth" } }), "errors_spec.lua (auth)");
    const port = await closedPort();
    expectPassed(await runSpec(editor, "errors_spec.lua", { fake, project, data: { phase: "refused", port } }), "errors_spec.lua (refused)");
    expectPassed(await runSpec(editor, "errors_spec.lua", { fake, project, data: { phase: "missing" } }), "errors_spec.lua (missing)");
    expectPassed(await runSpec(editor, "errors_spec.lua", { fake, project, data: { phase: "unbuilt" } }), "errors_spec.lua (unbuilt)");
  });

  it("context: #buffer, #selection, #diagnostics, #viewport and @file reach the model; completion; /file", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "first\nsecond\nthird\n", "src/helper.txt": "helper text\n", "build.log": "x\n", ".gitignore": "*.log\n" });
    fake.enqueue({ text: "Seen." });
    expectPassed(await runSpec(editor, "context_spec.lua", { fake, project }), "context_spec.lua");
    const sent = JSON.stringify(fake.requests[0]!.body.messages.at(-1));
    expect(sent).toContain("unsaved first line"); // #buffer: the buffer's text, not the disk's
    expect(sent).toContain("Selected in notes.txt, lines 2-3");
    expect(sent).toContain("line 3: warning [mylint]: third line looks odd");
    expect(sent).toContain("Visible in notes.txt, lines 1-3");
    expect(sent).toContain("helper text");
  });

  it("ask user: choices through vim.ui.select, free text through vim.ui.input, answers to the model", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    const ask = (input: object) => ({ toolCalls: [{ name: "ask_user_question", input }] });
    fake.enqueue(ask({ question: "Which colour?", choices: ["Red", "Blue"] }), ask({ question: "What is your name?" }), { text: "Thanks for both answers." });
    expectPassed(await runSpec(editor, "ask_user_spec.lua", { fake, project }), "ask_user_spec.lua");
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain("Blue");
    expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toContain("a free answer");
  });

  it("fix: Ask agent to fix a linter's diagnostic edits the buffer; the built-in menu runs the actions too", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "math.js": "function add(a, b) {\n  return a - b;\n}\n" });
    fake.enqueue(
      { toolCalls: [{ name: "edit_file", input: { path: "math.js", target_content: "a - b", replacement_content: "a + b" } }] },
      { text: "Fixed the operator.", chunkSize: 3, chunkDelayMs: 150 },
      { text: "It adds two numbers." },
    );
    expectPassed(await runSpec(editor, "fix_spec.lua", { fake, project }), "fix_spec.lua");
    const fix = lastUserText(fake, 0);
    expect(fix).toContain("Fix the problem reported at math.js:2");
    expect(fix).toContain("Diagnostic (line 2): lint: add() subtracts");
    const explain = lastUserText(fake, 2);
    expect(explain).toContain("Explain what the selected code in math.js does");
    expect(explain).toContain("Selected text:");
    // Both ran in the chat's one session: the explain request carries the fix turn's history.
    expect(fake.requests[2]!.body.messages.length).toBeGreaterThan(3);
  });

  it("cancel: <C-c> in the chat and :AgentCancel stop the turn, and the chat goes on", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ text: "partial answer", hang: true }, { text: "next answer" }, { text: "partial again", hang: true });
    expectPassed(await runSpec(editor, "cancel_spec.lua", { fake, project }), "cancel_spec.lua");
    expect(fake.requests).toHaveLength(3);
    expect(lastUserText(fake, 1)).toContain("Again");
  });

  it("wipe: wiping the chat while it streams is no error; the session's chat comes back", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ text: `${"word ".repeat(30)}the end.`, chunkSize: 5, chunkDelayMs: 30 });
    expectPassed(await runSpec(editor, "wipe_spec.lua", { fake, project }), "wipe_spec.lua");
  });

  it("sessions: :AgentSessions loads a saved session, replays it and goes on in it", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue({ text: "Answer one." }, { text: "Answer two." });
    expectPassed(await runSpec(editor, "sessions_spec.lua", { fake, project, data: { phase: 1 } }), "sessions_spec.lua (1)");
    expectPassed(await runSpec(editor, "sessions_spec.lua", { fake, project, data: { phase: 2 }, env: { TZ: "Asia/Kolkata" } }), "sessions_spec.lua (2)");
    expect(fake.requests[1]!.body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("ask: :'<,'>AgentAsk sends the selection as context; :AgentMode switches the mode", { timeout: TIMEOUT }, async () => {
    // Not Python: Neovim's python ftplugin runs python3 to fill 'path', seconds per file.
    const { fake, project } = await setup({ "code.lua": "local function f(a, b)\n  local x = b\n  return x\nend\n" });
    fake.enqueue({ text: "It returns b." });
    expectPassed(await runSpec(editor, "ask_spec.lua", { fake, project }), "ask_spec.lua");
    const sent = lastUserText(fake, 0);
    expect(sent).toContain("What does this do?");
    expect(sent).toContain("File: code.lua");
    expect(sent).toContain("Range: lines 2-3");
    expect(sent).toContain("Selected text:\\n```\\nb\\n  return x\\n```");
  });

  it("lint: the plugin writes no globals, reads no unknown ones, and every module loads", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({});
    expectPassed(await runSpec(editor, "lint_spec.lua", { fake, project }), "lint_spec.lua");
  });

  it("doc: :help agent_lsp documents every command, option, keymap and API function", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({});
    expectPassed(await runSpec(editor, "doc_spec.lua", { fake, project }), "doc_spec.lua");
  });

  it("health: :checkhealth agent_lsp reports no error, an error for a missing server, and live checks when asked", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({});
    expectPassed(await runSpec(editor, "health_spec.lua", { fake, project }), "health_spec.lua");
    const broken = await runSpec(editor, "health_spec.lua", {
      fake,
      project,
      data: { broken: true },
      env: { AGENT_LSP_TEST_CMD: JSON.stringify(["/nonexistent/agent-lsp", "--stdio"]) },
    });
    expectPassed(broken, "health_spec.lua (broken)");
    fake.enqueue({ text: "pong" }, { text: "pong" });
    const live = await runSpec(editor, "health_spec.lua", { fake, project, data: { live: true }, env: { ANTHROPIC_BASE_URL: fake.url } });
    expectPassed(live, "health_spec.lua (live)");
    expect(fake.requests).toHaveLength(2);
  });
}

for (const editor of findEditors()) {
  describe(editor.name, () => {
    if (editor.available) {
      nvimCases(editor);
    } else if (requireAll) {
      it("is installed", () => {
        throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`);
      });
    } else {
      it.skip(`skipped: ${editor.reason}`, () => undefined);
    }
  });
}
