/**
 * agent-lsp in real Helix, 25.01 (Debian trixie) and 25.07 (Debian sid), each unpacked by
 * install-helix.sh SUITE, driven under tmux as a user would, against the built server and the fake provider. Plain LSP
 * only: Helix has no plugin system. The workflow of issue 11: the chat file (.agent-lsp/chat.md,
 * edited through workspace/applyEdit), approvals as code actions on its blocks, code actions in any
 * file, and workspace commands that need no arguments.
 *
 * Without Helix or tmux the cases skip, or fail under AGENT_LSP_REQUIRE_ALL=1 (CI).
 */
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import type { FakeProvider } from "../helpers/fake-provider/index.js";
import { goToText, openChat, writePrompt } from "./helix-chat.js";
import { APPROVAL_BLOCK, FIX_EDIT, FIX_TITLE, MATH_JS, selectWarnedLine, TIMEOUT, useHelix } from "./helix-flows.js";
import { describeEachHelix, findHelixes, messageRow, type HelixEditor, type HelixSession } from "./helix-harness.js";

const helixes = await findHelixes();
const start = useHelix();

/** One frame of Helix's progress spinner (braille dots). */
const SPINNER = /[⣾⣽⣻⢿⡿⣟⣯⣷]/;
/** A slow answer: the turn runs for seconds, long enough to look at the screen meanwhile. */
const SLOW_ANSWER = { text: "It subtracts b from a although it is called add.", chunkSize: 1, chunkDelayMs: 80 };

/** The status line of a screen (the row with the mode). */
function statusLine(screen: string): string {
  return screen.split("\n").find((l) => / (NOR|INS|SEL) /.test(l)) ?? "";
}

/** The text of the last user message the model was sent. */
function lastUserText(f: FakeProvider, request = -1): string {
  const messages = f.requests.at(request)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "user").at(-1)?.content);
}

function helixCases(editor: HelixEditor): void {
  it("starts agent-lsp beside the language's own server; agent actions are in space-a, fix only over a diagnostic", { timeout: TIMEOUT }, async () => {
    const { hx } = await start(editor);
    // Line 2 with the one-cell cursor at column 0: a range, but not over the warning.
    await hx.waitForScreen((s) => /^●\s+2 /m.test(s), { what: "the lint server's warning on line 2" });
    await hx.sendKeys("j");
    const menu = await hx.openCodeActions("Ask agent: explain");
    expect(menu).toContain("Ask agent: write tests");
    expect(menu).not.toContain(FIX_TITLE);
    await hx.escape();
    // The whole line (x) covers the warning: Helix sends the other server's diagnostic along.
    await hx.sendKeys("x");
    const fixMenu = await hx.openCodeActions(FIX_TITLE);
    expect(fixMenu).toContain("Ask agent: explain");
    await hx.escape();
    expect(await hx.quit()).toBe(true);
  });

  it("fix: the agent's edit lands in the Helix buffer (not on disk), u takes it back, the message line says done", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    fake.enqueue(FIX_EDIT, { text: "Fixed the operator." });
    await selectWarnedLine(hx);
    await hx.pickCodeAction(FIX_TITLE);
    const edited = await hx.waitForScreen((s) => s.includes("return a + b;") && /Agent: fix math\.js:2: done/.test(s), { what: "the edit and the end of the turn" });
    expect(edited).toMatch(/math\.js \[\+\]/); // modified, unsaved
    expect(await hx.messageLine()).toContain("Agent: fix math.js:2: done (changed math.js)");
    expect(hx.read("math.js")).toBe(MATH_JS);
    const prompt = lastUserText(fake, 0);
    expect(prompt).toContain("Fix the problem reported at math.js:2");
    expect(prompt).toContain("lint: add() subtracts");
    await hx.sendKeys("u");
    const undone = await hx.waitForScreen((s) => s.includes("return a - b;"), { what: "undo to restore the line" });
    expect(undone).not.toMatch(/math\.js \[\+\]/);
    expect(hx.read("math.js")).toBe(MATH_JS);
    expect(fake.violations).toEqual([]);
    expect(await hx.quit()).toBe(true);
  });

  it("an edit to another open file lands in that buffer; u there takes it back", { timeout: TIMEOUT }, async () => {
    const util = "export const answer = 41;\n";
    const { hx, fake } = await start(editor, { files: { "math.js": MATH_JS, "util.js": util }, open: ["math.js", "util.js"] });
    fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "util.js", target_content: "41", replacement_content: "42" } }] }, { text: "Changed util.js." });
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await hx.waitForScreen((s) => /Agent: explain math\.js:2: done \(changed util\.js\)/.test(s), { what: "the turn to end" });
    expect(hx.read("util.js")).toBe(util);
    await hx.sendKeys("g", "n"); // the next buffer: util.js
    await hx.waitForScreen((s) => s.includes("export const answer = 42;") && /util\.js \[\+\]/.test(s), { what: "util.js's buffer with the edit" });
    await hx.sendKeys("u");
    await hx.waitForScreen((s) => s.includes("export const answer = 41;"), { what: "undo in util.js" });
    expect(hx.read("util.js")).toBe(util);
    expect(await hx.quit()).toBe(true);
  });

  it("explain: the outcome and the answer read apart in the one-row message line; the file is unchanged", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    fake.enqueue({ text: "It returns a minus b.\nSo add() subtracts." });
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await hx.waitForScreen((s) => s.includes("Agent: explain math.js:2: done"), { what: "the end of the turn" });
    // Helix shows one row of a message and drops line breaks: agent-lsp lays it out for that row
    // (clientInfo "helix"), so the cost and the answer do not run together.
    expect(await hx.messageLine()).toMatch(/Agent: explain math\.js:2: done, \$\d+\.\d{2,4} — It returns a minus b\. So add\(\) subtracts\./);
    expect(hx.serverMessages("window/showMessage").at(-1)?.params.message).toMatch(/^Agent: explain math\.js:2: done, \$\d+\.\d{2,4} — It returns a minus b\. So add\(\) subtracts\.$/);
    expect(lastUserText(fake, 0)).toContain("Explain what the selected code in math.js does");
    expect(await hx.capture()).toContain("return a - b;");
    // Helix declares no agent protocol: none of the stream's agent/update notifications reach it.
    expect(hx.serverMessages("agent/update")).toEqual([]);
    expect(await hx.quit()).toBe(true);
  });

  it("progress: while a turn runs the message line shows its title, then each tool; the spinner as each Helix line draws it", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    fake.enqueue({ toolCalls: [{ name: "read_file", input: { path: "math.js" } }], chunkDelayMs: 300 }, SLOW_ANSWER);
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    const running = await hx.waitForScreen((s) => /Agent: explain math\.js:2\s*$/m.test(s), { what: "the progress title in the message line" });
    if (editor.line === "25.01") {
      // 25.01 draws the spinner for the first server of language-servers only (test-lint here).
      expect(statusLine(running)).not.toMatch(SPINNER);
    } else {
      // 25.07 draws it for any busy server: agent-lsp's turn spins although test-lint is first.
      await hx.waitForScreen((s) => SPINNER.test(statusLine(s)), { what: "the spinner in the status line" });
    }
    // 25.01 shows the report alone after the token ("[agent-lsp 1] Read math.js"); 25.07 after the
    // server's name and the title ("agent-lsp: Agent: explain math.js:2 ⋅ Read math.js").
    const toolRow = editor.line === "25.01" ? /\] Read math\.js\s*$/ : /^agent-lsp: Agent: explain math\.js:2 ⋅ Read math\.js\s*$/;
    await hx.waitForScreen((s) => toolRow.test(messageRow(s)), { what: "the tool call in the progress line" });
    await hx.waitForScreen((s) => s.includes("Agent: explain math.js:2: done"), { what: "the end of the turn" });
    // Once the turn has ended nothing spins (in 25.07 too: the spinner was the turn's).
    await hx.waitForScreen((s) => !SPINNER.test(statusLine(s)), { what: "no spinner after the turn" });
    expect(await hx.quit()).toBe(true);
  });

  it("alone, agent-lsp is the first server: Helix draws its spinner while a turn runs", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    fake.enqueue(SLOW_ANSWER);
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await hx.waitForScreen((s) => SPINNER.test(statusLine(s)), { what: "the spinner in the status line" });
    await hx.waitForScreen((s) => s.includes("Agent: explain math.js:2: done"), { what: "the end of the turn" });
    expect(await hx.quit()).toBe(true);
  });

  it("ask mode: the approval is a block in the chat file; Approve makes the change in the buffer", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { safety: "ask" });
    fake.enqueue(FIX_EDIT, { text: "Fixed after approval." });
    await selectWarnedLine(hx);
    await hx.pickCodeAction(FIX_TITLE);
    // [editor] approvals = "auto": a message box shows no diff, so the chat file opens on the block.
    const block = await hx.waitForScreen((s) => APPROVAL_BLOCK.test(s) && /chat\.md/.test(s), { what: "the approval block in the chat buffer" });
    await goToText(hx, `_#${APPROVAL_BLOCK.exec(block)![1]} waits`);
    await hx.pickCodeAction("Approve");
    await hx.waitForScreen((s) => /Agent: fix math\.js:2: done \(changed math\.js\)/.test(s), { what: "the end of the turn" });
    await hx.sendKeys("g", "a"); // back to math.js
    await hx.waitForScreen((s) => s.includes("return a + b;") && /math\.js \[\+\]/.test(s), { what: "the approved edit in math.js's buffer" });
    expect(hx.serverMessages("window/showMessageRequest")).toEqual([]);
    expect(await hx.quit()).toBe(true);
  });

  it("ask mode: Reject leaves the buffer and the disk untouched and the end says what did not happen", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { safety: "ask" });
    fake.enqueue(FIX_EDIT, { text: "I could not change it." });
    await selectWarnedLine(hx);
    await hx.pickCodeAction(FIX_TITLE);
    const block = await hx.waitForScreen((s) => APPROVAL_BLOCK.test(s), { what: "the approval block in the chat buffer" });
    const id = APPROVAL_BLOCK.exec(block)![1]!;
    await goToText(hx, `_#${id} waits`);
    await hx.pickCodeAction("Reject");
    await hx.waitForScreen((s) => s.includes(`_#${id}: rejected_`), { what: "the block marked rejected" });
    await hx.waitForScreen((s) => /Agent: fix math\.js:2: finished, but 1 step did not happen/.test(s), { what: "an end that is not a bare done" });
    expect(hx.read("math.js")).toBe(MATH_JS);
    await hx.sendKeys("g", "a");
    await hx.waitForScreen((s) => s.includes("return a - b;") && /math\.js /.test(s), { what: "math.js unchanged" });
    expect(lastUserText(fake)).toMatch(/declined/);
    expect(await hx.quit()).toBe(true);
  });

  // Helix 25.07's code-action hint (the `code-action-hint` gutter) asks on every cursor move with
  // triggerKind 2; 25.01 has no such gutter (its config would reject it), so the case is 25.07's.
  if (editor.line === "25.07") it("code-action hint gutter: no hint on ordinary or blank lines, a hint over the lint warning", { timeout: TIMEOUT }, async () => {
    const source = "function add(a, b) {\n  return a - b;\n}\n\nexport { add };\n";
    const { hx } = await start(editor, { files: { "math.js": source }, config: '[editor]\ngutters = ["diagnostics", "code-action-hint", "spacer", "line-numbers", "spacer"]\n' });
    await hx.waitForScreen((s) => /^●\s+2 /m.test(s), { what: "the lint warning in the gutter of line 2" });
    /** Waits until agent-lsp has answered an automatic request for Helix's cursor on `line` (0-based) from `from` to `to` (a line break on a blank line). */
    const answeredOn = async (line: number, from: number, to: { line: number; character: number }) => {
      const range = JSON.stringify({ end: to, start: { character: from, line } });
      await hx.waitForLog(/"triggerKind":2/, "an automatic code-action request");
      const deadline = Date.now() + 20_000;
      for (;;) {
        const last = hx.exchanges("textDocument/codeAction").filter((e) => e.params.context.triggerKind === 2).at(-1);
        if (last && JSON.stringify(last.params.range) === range && last.result !== undefined) return last.result as { title: string }[];
        if (Date.now() > deadline) throw new Error(`no answered automatic request for ${range}: ${JSON.stringify(last)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const hintRow = (s: string) => s.split("\n").find((l) => l.includes("⋮"));
    expect(await answeredOn(0, 0, { character: 1, line: 0 })).toEqual([]);
    expect(hintRow(await hx.capture())).toBeUndefined();
    await hx.sendKeys("j", "j", "j"); // the blank line 4
    await hx.waitForScreen((s) => / 4:1 *$/m.test(s), { what: "the cursor on line 4" });
    expect(await answeredOn(3, 0, { character: 0, line: 4 })).toEqual([]);
    expect(hintRow(await hx.capture())).toBeUndefined();
    // Onto the "a" of "a - b" on line 2, under the warning, with the one-cell cursor (f and w select).
    await hx.sendKeys("k", "k", ...Array<string>(9).fill("l"));
    const hinted = await hx.waitForScreen((s) => /⋮\s*2 /.test(hintRow(s) ?? ""), { what: "the hint on line 2" });
    expect(hinted).toMatch(/ 2:10 *$/m);
    const titles = (await answeredOn(1, 9, { character: 10, line: 1 })).map((a) => a.title);
    expect(titles).toEqual(["Ask agent to fix: lint: add() subtracts"]);
    expect(await hx.quit()).toBe(true);
  });

  it(":lsp-workspace-command lists only the commands Helix can run (no arguments)", { timeout: TIMEOUT }, async () => {
    const { hx } = await start(editor);
    await hx.workspaceCommand("");
    const picker = await hx.waitForScreen((s) => s.includes("agent.newSession") && s.includes("agent.cancel") && s.includes("agent.send") && s.includes("agent.openChat"), { what: "the command picker" });
    expect(picker).not.toContain("agent.explain");
    expect(picker).not.toContain("agent.answer");
    // 25.07 passes JSON arguments: agent.prompt is listed for it alone.
    if (editor.line === "25.07") expect(picker).toContain("agent.prompt");
    else expect(picker).not.toContain("agent.prompt");
    expect(await hx.quit()).toBe(true);
  });

  // The plain-LSP workflow of issue 11: the chat file, approvals as code actions, commands without arguments.
  it("fix on a line without diagnostics: Ask agent to fix is offered on any line and sends the line's text", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    fake.enqueue({ text: "Nothing to fix." });
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent to fix line 2");
    await fake.waitForRequests(1, 20_000);
    expect(lastUserText(fake, 0)).toContain("return a - b;");
  });

  it("one code action per refactoring: every refactor action runs without a message prompt", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    fake.enqueue({ text: "Refactored." });
    await hx.sendKeys("j");
    await hx.pickCodeAction(/refactor/i);
    await fake.waitForRequests(1, 20_000);
    expect(hx.serverMessages("window/showMessageRequest")).toEqual([]);
  });

  it("agent.cancel without arguments: :lsp-workspace-command agent.cancel stops the running turn", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    fake.enqueue({ text: "partial answer", hang: true });
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await fake.waitForRequests(1, 20_000);
    await hx.workspaceCommand("agent.cancel");
    await hx.waitForScreen((s) => /cancel/i.test(messageRow(s)), { what: "the turn's end saying it was cancelled" });
  });

  it("readable $/progress: the progress line has no opaque token", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    fake.enqueue(SLOW_ANSWER);
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    const running = await hx.waitForScreen((s) => /agent/i.test(messageRow(s)) && !/done/.test(messageRow(s)), { what: "the progress line" });
    expect(messageRow(running)).not.toMatch(/\[[0-9a-f]{8}-[0-9a-f-]{27}\]/);
  });

  it("approvals in the chat file: ask mode says an approval is needed instead of a bare done", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { safety: "ask" });
    fake.enqueue(FIX_EDIT, { text: "Waiting for you." });
    await selectWarnedLine(hx);
    await hx.pickCodeAction(FIX_TITLE);
    await hx.waitForScreen((s) => /approval needed/i.test(messageRow(s)), { what: "approval needed (see .agent-lsp/chat.md)" });
  });

  it("answers in the chat file: an action's whole answer is readable in .agent-lsp/chat.md", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor);
    const answer = "It returns a minus b.\nSo add() subtracts.";
    fake.enqueue({ text: answer });
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    await hx.waitForScreen((s) => /done/.test(messageRow(s)), { what: "the end of the turn" });
    expect(existsSync(hx.file(".agent-lsp/chat.md")) && hx.read(".agent-lsp/chat.md")).toContain(answer);
  });

  it("chat file: Send to agent streams the answer under ## Agent in the open chat buffer", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    fake.enqueue({ text: "Line one of the answer.\nLine two of the answer.", chunkSize: 4, chunkDelayMs: 20 });
    await openChat(hx);
    await writePrompt(hx, "What does math.js do?");
    await hx.pickCodeAction("Send to agent");
    const screen = await hx.waitForScreen((s) => s.includes("Line two of the answer.") && /tokens in/.test(s), { what: "the answer in the chat buffer" });
    expect(screen).toMatch(/## Agent/);
    expect(screen).toMatch(/chat\.md \[\+\]/); // in the buffer, unsaved: every write was an applyEdit
    expect(lastUserText(fake, 0)).toContain("What does math.js do?");
    expect(await hx.quit()).toBe(true);
  });
  it("chat file: a burst typed in the middle of the prompt line reaches the model as typed, and the answer still lands", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    fake.enqueue({ text: "It adds two numbers." });
    await openChat(hx);
    await writePrompt(hx, "What does  do?");
    // Back to the gap between "does" and "do", then a burst there: a keystroke applied out of
    // order would land in the wrong place, not at the end of the line.
    await hx.sendKeys("F", "d", "i");
    await hx.typeText("the function add() in math.js ");
    await hx.escape();
    await hx.pickCodeAction("Send to agent");
    await hx.waitForScreen((s) => s.includes("It adds two numbers.") && /tokens in/.test(s), { what: "the answer in the chat buffer" });
    expect(lastUserText(fake, 0)).toContain("What does  the function add() in math.js do?");
    expect(await hx.quit()).toBe(true);
  });
  it("chat file: an edit the prompt asks for lands in the other open buffer, not on disk", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    fake.enqueue(FIX_EDIT, { text: "Fixed the operator." });
    await openChat(hx);
    await writePrompt(hx, "Fix add in math.js");
    await hx.pickCodeAction("Send to agent");
    await hx.waitForScreen((s) => s.includes("Fixed the operator.") && /Edit math\.js ✓|math\.js ✓/.test(s), { what: "the answer and the tool line in the chat" });
    expect(hx.read("math.js")).toBe(MATH_JS);
    await hx.sendKeys("g", "a");
    await hx.waitForScreen((s) => s.includes("return a + b;") && /math\.js \[\+\]/.test(s), { what: "the edit in math.js's buffer" });
    expect(await hx.quit()).toBe(true);
  });

  it("chat file: Cancel agent turn stops a slow stream", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    fake.enqueue({ text: "partial answer", hang: true });
    await openChat(hx);
    await writePrompt(hx, "Take your time");
    await hx.pickCodeAction("Send to agent");
    await hx.waitForScreen((s) => /^\s*\d+\s+partial/m.test(s), { what: "the start of the answer (the stream then hangs)" });
    await hx.pickCodeAction("Cancel agent turn");
    await hx.waitForScreen((s) => s.includes("_(cancelled)_"), { what: "the turn marked cancelled in the chat" });
    expect(await hx.quit()).toBe(true);
  });

  it("chat file: Add selection to agent chat quotes path:lines under ## You", { timeout: TIMEOUT }, async () => {
    const { hx } = await start(editor, { servers: ["agent-lsp"] });
    await hx.sendKeys("j", "x");
    await hx.pickCodeAction("Add selection to agent chat");
    await openChat(hx);
    await hx.waitForScreen((s) => s.includes("math.js:2") && s.includes("  return a - b;"), { what: "the quoted selection in the chat" });
    expect(await hx.quit()).toBe(true);
  });

  it("workspace commands without arguments: agent.send with nothing pending says why; agent.newSession opens a block", { timeout: TIMEOUT }, async () => {
    const { hx } = await start(editor, { servers: ["agent-lsp"] });
    await hx.workspaceCommand("agent.send");
    await hx.waitForScreen((s) => /agent\.send: .*nothing to send/.test(messageRow(s)), { what: "the reason in the message line" });
    await hx.workspaceCommand("agent.newSession");
    await openChat(hx);
    await hx.waitForScreen((s) => /# Session s-/.test(s), { what: "the new session's block in the chat" });
    expect(await hx.quit()).toBe(true);
  });

  it("chat file: typing in another buffer shows its characters while a 2,000-line answer streams", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"] });
    const lines = Array.from({ length: 2000 }, (_, i) => `answer line ${i + 1}`).join("\n");
    fake.enqueue({ text: lines, chunkSize: 64, chunkDelayMs: 15 });
    await openChat(hx);
    await writePrompt(hx, "Write a long answer");
    await hx.pickCodeAction("Send to agent");
    await hx.waitForScreen((s) => /answer line \d+/.test(s), { what: "the answer streaming" });
    await hx.sendKeys("g", "a"); // math.js
    await hx.waitForScreen((s) => s.includes("function add(a, b)"), { what: "math.js" });
    await hx.sendKeys("i");
    const typed = Date.now();
    await hx.typeText("zq");
    await hx.waitForScreen((s) => s.includes("zqfunction add"), { what: "the typed characters", timeoutMs: 3000 });
    expect(Date.now() - typed).toBeLessThan(3000);
    // The stream was still going: the turn had not ended when the characters showed.
    expect(hx.serverMessages("window/showMessage").some((m) => /done/.test(m.params.message))).toBe(false);
    await hx.escape();
    await hx.waitForScreen((s) => s.includes("Agent: Write a long answer: done"), { what: "the end of the long turn", timeoutMs: 60_000 });
    const edits = hx.serverMessages("workspace/applyEdit").length;
    expect(edits).toBeGreaterThan(5);
    expect(await hx.quit()).toBe(true);
  });
}

describeEachHelix("agent-lsp", helixes, helixCases);
