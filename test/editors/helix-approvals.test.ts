/**
 * Approvals and questions in real Helix, 25.01 and 25.07, as a user gives them: only on purpose
 * (a code action on the chat file's block, where the diff is in view), never by a stray key; an
 * answer given after the prompt was withdrawn is said, not dropped; a question with choices that
 * also takes the user's own words keeps the chat file's block beside Helix 25.07's message box.
 */
import { expect, it } from "vitest";
import { goToText } from "./helix-chat.js";
import { APPROVAL_BLOCK, FIX_EDIT, FIX_TITLE, MATH_JS, selectWarnedLine, TIMEOUT, useHelix } from "./helix-flows.js";
import { describeEachHelix, findHelixes, messageRow, type HelixEditor, type HelixSession } from "./helix-harness.js";

const helixes = await findHelixes();
const start = useHelix();

/** The screen shows Helix 25.07's message box for the fix's approval (its summary and buttons). */
const BOX = (s: string) => s.includes("│ edit_file: math.js (+1 -1) │") && /^\s+Yes, don't ask again\s*$/m.test(s);

/** Whether the chat buffer on screen shows block `id` answered (its outcome line). */
const settled = (screen: string, id: string) => screen.includes(`_#${id}: `);

/** Picks the fix over the warning in ask mode and waits for the approval block in the chat buffer; its id. */
async function fixUntilBlock(hx: HelixSession): Promise<string> {
  await selectWarnedLine(hx);
  await hx.pickCodeAction(FIX_TITLE);
  const screen = await hx.waitForScreen((s) => APPROVAL_BLOCK.test(s) && /chat\.md/.test(s), { what: "the approval block in the chat buffer" });
  return APPROVAL_BLOCK.exec(screen)![1]!;
}

function approvalCases(editor: HelixEditor): void {
  it("a stray key typed while an approval waits answers nothing; Approve on the block does", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { safety: "ask" });
    fake.enqueue(FIX_EDIT, { text: "Fixed after approval." });
    const id = await fixUntilBlock(hx);
    // What a user typing into the editor sends meanwhile: moves, Enter, y, n, Escape.
    for (const key of ["j", "Enter", "y", "n", "Escape", "k", "Enter", "q", "Escape"]) await hx.sendKeys(key);
    // Helix handles keys in order: once the menu asked for below is up, every stray key was read.
    await goToText(hx, `_#${id} waits`);
    await hx.openCodeActions("Approve");
    await hx.escape();
    expect(settled(await hx.capture(), id)).toBe(false);
    expect(fake.requests).toHaveLength(1);
    expect(hx.serverMessages("window/showMessageRequest")).toEqual([]);
    expect(hx.read("math.js")).toBe(MATH_JS);
    await hx.pickCodeAction("Approve");
    await hx.waitForScreen((s) => settled(s, id) && /Agent: fix math\.js:2: done \(changed math\.js\)/.test(s), { what: "the block approved and the turn done" });
    await hx.sendKeys("g", "a");
    await hx.waitForScreen((s) => s.includes("return a + b;") && /math\.js \[\+\]/.test(s), { what: "the approved edit in math.js's buffer" });
    expect(await hx.quit()).toBe(true);
  });

  it("an approval block picked after it timed out: the message line says so and nothing runs", { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { safety: "ask", agentConfig: { approval_timeout_s: 8 } });
    fake.enqueue(FIX_EDIT, { text: "Not fixed." });
    const id = await fixUntilBlock(hx);
    await goToText(hx, `_#${id} waits`);
    // The menu is opened while the block waits and its entry picked once the block timed out and
    // the turn has ended (so the turn's own end is not what the message line shows last).
    await hx.pickCodeAction("Approve", async () => {
      await hx.waitForLog(new RegExp(`_#${id}: no answer`, "i"), "the block's timeout written into the chat file", 30_000);
      await hx.waitForLog(/"method":"window\/showMessage".*finished, but 1 step did not happen/, "the turn's end");
    });
    await hx.waitForScreen((s) => /not waiting|no longer waiting/.test(messageRow(s)) && messageRow(s).includes(id), { what: "the late pick said in the message line" });
    expect(fake.requests).toHaveLength(2); // the fix, then the model told the edit was declined
    expect(hx.read("math.js")).toBe(MATH_JS);
    await hx.sendKeys("g", "a");
    await hx.waitForScreen((s) => s.includes("return a - b;") && !/math\.js \[\+\]/.test(s), { what: "math.js unchanged" });
    expect(await hx.quit()).toBe(true);
  });

  it('[editor] approvals = "message": 25.07 asks in its box and a Yes given after the timeout is said, nothing runs; 25.01 (no box) asks in the chat file', { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { safety: "ask", agentConfig: { editor: { approvals: "message" }, approval_timeout_s: 4 } });
    fake.enqueue(FIX_EDIT, { text: "Not fixed." });
    await selectWarnedLine(hx);
    await hx.pickCodeAction(FIX_TITLE);
    if (editor.line === "25.01") {
      // 25.01 answers window/showMessageRequest with MethodNotFound: the block instead.
      const id = APPROVAL_BLOCK.exec(await hx.waitForScreen((s) => APPROVAL_BLOCK.test(s) && /chat\.md/.test(s), { what: "the approval block in the chat buffer" }))![1]!;
      expect(hx.serverMessages("window/showMessageRequest")).toHaveLength(1);
      await goToText(hx, `_#${id} waits`);
      await hx.pickCodeAction("Reject");
      await hx.waitForScreen((s) => settled(s, id) && /finished, but 1 step did not happen/.test(messageRow(s)), { what: "the block rejected and the turn's end" });
      expect(await hx.quit()).toBe(true);
      return;
    }
    await hx.waitForScreen(BOX, { what: "Helix's message box with the approval" });
    // The turn gives up after approval_timeout_s; Helix keeps the box ($/cancelRequest is ignored).
    const ended = await hx.waitForScreen((s) => /Agent: fix math\.js:2: finished, but 1 step did not happen/.test(s), { what: "the turn's end", timeoutMs: 30_000 });
    expect(BOX(ended), ended).toBe(true);
    await hx.sendKeys("Enter"); // Yes, preselected
    const said = 'agent-lsp: that approval had already timed out; nothing ran (you chose "Yes")';
    await hx.waitForScreen((s) => messageRow(s).includes(said), { what: "the late Yes said in the message line" });
    expect(hx.read(".agent-lsp/chat.md")).toContain(`_${said}_`);
    expect(hx.read("math.js")).toBe(MATH_JS);
    expect(await hx.capture()).toContain("return a - b;");
    expect(fake.requests).toHaveLength(2);
    expect(await hx.quit()).toBe(true);
  });

  it('a question with choices that also takes your own words: the chat file\'s block beside 25.07\'s box, announced as a question; a dismissed box leaves the block', { timeout: TIMEOUT }, async () => {
    const { hx, fake } = await start(editor, { servers: ["agent-lsp"], agentConfig: { editor: { approvals: "message" } } });
    fake.enqueue({ toolCalls: [{ name: "ask_user_question", input: { question: "Which database?", choices: ["Postgres", "SQLite"] } }] }, { text: "Noted." });
    await hx.sendKeys("j");
    await hx.pickCodeAction("Ask agent: explain");
    if (editor.line === "25.07") {
      await hx.waitForScreen((s) => s.includes("│ Which database? │") && /^\s+SQLite\s*$/m.test(s), { what: "the question's box with its choices" });
      await hx.escape(); // the box dismissed: the question still waits in the chat file
    }
    // Announced as what it is: a question, not an approval.
    await hx.waitForScreen((s) => messageRow(s).includes("agent-lsp: a question for you (see .agent-lsp/chat.md)"), { what: "the question announced in the message line" });
    expect(hx.serverMessages("window/showMessage").map((m) => m.params.message).join("\n")).not.toMatch(/approval needed/);
    await hx.workspaceCommand("agent.openChat");
    const question = await hx.waitForScreen((s) => /### Question \(#[0-9a-f]{8}\): Which database\?/.test(s) && /chat\.md/.test(s), { what: "the question's block in the chat buffer" });
    await goToText(hx, `_#${/### Question \(#([0-9a-f]{8})\)/.exec(question)![1]} waits`);
    await hx.pickCodeAction("SQLite");
    await hx.waitForScreen((s) => /answered "SQLite"/.test(s), { what: "the block answered" });
    await fake.waitForRequests(2, 20_000);
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("The user answered: SQLite");
    expect(await hx.quit()).toBe(true);
  });
}

describeEachHelix("agent-lsp approvals", helixes, approvalCases);
