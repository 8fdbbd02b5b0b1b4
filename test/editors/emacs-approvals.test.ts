/**
 * Approvals, questions and reviews in real batch Emacs (28 and 30) against the built server and
 * the fake provider. Everything the server asks is asked in the chat, answered only by keys
 * pressed on its block there (never by keys typed into another buffer); file changes are
 * reviewed in the diff buffer or in ediff; a No can carry words the model reads.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { emacsSuite, TIMEOUT } from "./emacs-suite.js";
import { lastUserText, useSpecFixture } from "./run-detached.js";
import { waitFor } from "../helpers/wait.js";

const setup = useSpecFixture();
const run = (command: string) => ({ toolCalls: [{ name: "execute_command", input: { command } }] });
const lastMessage = (fake: { requests: { body: { messages: unknown[] } }[] }, i: number) => JSON.stringify(fake.requests[i]!.body.messages.at(-1));
const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
/** A proposal for TEN that changes lines 2 and 9, and then an edit of line 5. */
const twoHunksThenAnother = () => [
  { toolCalls: [{ name: "read_file", input: { path: "app.txt" } }] },
  { toolCalls: [{ name: "write_file", input: { path: "app.txt", content: `${TEN.map((l, i) => (i === 1 || i === 8 ? `${l} changed` : l)).join("\n")}\n` } }] },
  { text: "Changed what you accepted." },
  { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "line 5", replacement_content: "line five" } }] },
  { text: "Understood." },
];

emacsSuite((editor, { spec, specLogged }) => {
  it("permission: a command is asked in the chat with its folder; y on the block runs it, n declines it", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue(run("echo from-the-agent"), { text: "Ran it." }, run("printf other"), { text: "Not run." });
    await spec("permission-test.el", "agent-lsp-permission-each-way", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 1)).toContain("from-the-agent");
    expect(lastMessage(fake, 3)).toMatch(/declined|not done/i);
  });

  it("permission: C-g on the block answers No at once, and the next approval works", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue(run("echo first"), { text: "Declined." }, run("echo second-run"), { text: "Ran it." });
    await spec("permission-test.el", "agent-lsp-permission-quit", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 1)).toMatch(/declined|not done/i);
    expect(lastMessage(fake, 3)).toContain("second-run");
  });

  it("permission: killing the chat while an approval waits answers it No", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue(run("echo first"), { text: "Declined." });
    await spec("permission-test.el", "agent-lsp-permission-chat-killed", { fake, project, safety: "ask" });
    await waitFor(() => fake.requests.length === 2, 30_000);
    expect(lastMessage(fake, 1)).toMatch(/declined/i);
  });

  it("permission: an approval Emacs fails to show reaches the model as that failure, not as the user's No", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue(run("echo never-asked"), { text: "Could not ask." });
    await spec("permission-test.el", "agent-lsp-permission-cannot-ask", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 1)).toContain("could not show the prompt: Emacs could not ask the user: No room for the block");
  });

  it("permission: 40 y typed into a code buffer (and yes in the chat's prompt) while an approval waits never answer it", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "main.py": "print('hi')\n", "notes.txt": "x\n" });
    fake.enqueue(run("ls -la"), { text: "Not run." });
    await spec("permission-test.el", "agent-lsp-permission-typed-elsewhere", { fake, project, safety: "ask" });
    expect(fake.requests).toHaveLength(2);
    expect(lastMessage(fake, 1)).toMatch(/declined/i);
    expect(lastMessage(fake, 1)).not.toContain("main.py");
    expect(readFileSync(project.file("main.py"), "utf8")).toBe("print('hi')\n");
  });

  it("permission: the approval names the files Yes saves first; a No with words gives the model those words", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "alpha\nbeta\n" });
    fake.enqueue(
      { toolCalls: [{ name: "edit_file", input: { path: "notes.txt", target_content: "beta", replacement_content: "BETA" } }] },
      run("cat notes.txt"),
      { text: "Told." },
    );
    await spec("permission-test.el", "agent-lsp-permission-save-first", { fake, project, safety: "ask", settings: { exec: { save_before_commands: "ask" } } });
    expect(lastMessage(fake, 2)).toContain("use head instead");
    expect(readFileSync(project.file("notes.txt"), "utf8")).toBe("alpha\nbeta\n");
  });

  it("ask user: a choice by its number and words of one's own, asked in the chat, reach the model", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    const ask = (input: object) => ({ toolCalls: [{ name: "ask_user_question", input }] });
    fake.enqueue(ask({ question: "Which colour?", choices: ["Red", "Blue"] }), ask({ question: "What is your name?" }), { text: "Thanks for both answers." });
    await spec("permission-test.el", "agent-lsp-ask-user", { fake, project });
    expect(lastMessage(fake, 1)).toContain("Blue");
    expect(lastMessage(fake, 2)).toContain("a free answer");
  });

  it("plan: a plan made in plan mode is asked about in the chat; Revise sends the words and stays in plan mode, Go switches to ask and asks to carry it out", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    const plan = (steps: string[]) => ({ toolCalls: [{ name: "make_plan", input: { plan: steps } }] });
    fake.enqueue(
      plan(["Read the parser", "Fix the off-by-one"]),
      { text: "Here is my plan." },
      plan(["Read the parser", "Fix the off-by-one", "Run the tests"]),
      { text: "Revised." },
      { text: "Carrying it out." },
    );
    await spec("permission-test.el", "agent-lsp-plan-approve", { fake, project, safety: "plan" });
    expect(lastUserText(fake, 2)).toContain("Add a step that runs the tests");
    expect(lastUserText(fake, 4)).toContain("Carry out the plan");
  });

  it("phase report: one that waits is asked in the chat; Stop here ends the turn", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "x\n" });
    fake.enqueue(
      { toolCalls: [{ name: "phase_report", input: { completed: "Parser rewritten", verification: "tests pass", next_phase: "Migrate callers", requires_acknowledgment: true } }] },
      { text: "Not reached." },
    );
    await spec("permission-test.el", "agent-lsp-phase-acknowledge", { fake, project });
    // The turn ended with the answer: the model was not called again.
    expect(fake.requests).toHaveLength(1);
  });

  it("review: one hunk of two is taken and written exactly (keys typed elsewhere never reach it); a rejected proposal changes nothing", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": `${TEN.join("\n")}\n`, "other.txt": "other\n" });
    fake.enqueue(...twoHunksThenAnother());
    await spec("review-test.el", "agent-lsp-review-partial-then-reject", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 4)).toMatch(/reject|declin|denied|refus/i);
    // The file is open in Emacs: the disk never changed.
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe(`${TEN.join("\n")}\n`);
    expect(fake.violations).toEqual([]);
  });

  it("review: W rejects with words the model gets", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": "one\ntwo\n" });
    fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "two", replacement_content: "TWO" } }] }, { text: "Will keep it lower case." });
    await spec("review-test.el", "agent-lsp-review-reject-why", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 1)).toContain("keep it lower case");
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("review: cancelling the turn closes its open review and answers it", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": "one\ntwo\n" });
    fake.enqueue(
      { toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "two", replacement_content: "TWO" } }] },
      // The cancelled turn calls the model no more: the next prompt gets this answer.
      { text: "After the cancel." },
    );
    await spec("review-test.el", "agent-lsp-review-cancel", { fake, project, safety: "ask" });
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe("one\ntwo\n");
    expect(fake.requests).toHaveLength(2);
  });

  it("review: in ediff (e on the block), the changes copied into the result are what is written; C-c C-k rejects", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": `${TEN.join("\n")}\n` });
    fake.enqueue(...twoHunksThenAnother());
    await spec("review-test.el", "agent-lsp-review-ediff", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 4)).toMatch(/reject|declin|denied|refus/i);
  });

  it("review: ediff from the chat in a side window of a one-window frame works, puts the layout back and leaves no buffer; an ediff that fails shows the diff review, never a No", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": `${TEN.join("\n")}\n` });
    fake.enqueue(...twoHunksThenAnother());
    await spec("review-test.el", "agent-lsp-review-ediff-side-window", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 2)).not.toMatch(/declin/i);
    expect(lastMessage(fake, 4)).not.toMatch(/declin/i);
    expect(lastMessage(fake, 4)).toContain("line five");
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe(`${TEN.join("\n")}\n`);
  });

  it("review: past the lines the review shows, a change shows its header; + shows as many more of its lines, and it can be taken", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": `${TEN.join("\n")}\n` });
    fake.enqueue(...twoHunksThenAnother().slice(0, 3));
    await spec("review-test.el", "agent-lsp-review-show-hunk", { fake, project, safety: "ask" });
    // The model learns the change it was shown whole went in and the other was left out.
    expect(lastMessage(fake, 2)).toContain("line 9 changed");
    expect(lastMessage(fake, 2)).toMatch(/line 2[^\n]*declined|declined[^\n]*line 2/i);
  });

  it("review: a change that cannot be read for review says so in the chat and its block, still waits, and A accepts it whole", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": "one\ntwo\n" });
    fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "two", replacement_content: "TWO" } }] }, { text: "Changed." });
    await spec("review-test.el", "agent-lsp-review-unreadable", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 1)).not.toMatch(/declin|reject/i);
  });

  it("review: C-c C-w in ediff rejects with words the model gets", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "app.txt": "one\ntwo\n" });
    fake.enqueue({ toolCalls: [{ name: "edit_file", input: { path: "app.txt", target_content: "two", replacement_content: "TWO" } }] }, { text: "Will keep it lower case." });
    await spec("review-test.el", "agent-lsp-review-ediff-reject-why", { fake, project, safety: "ask" });
    expect(lastMessage(fake, 1)).toContain("keep it lower case");
    expect(readFileSync(project.file("app.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("review: a two-file change is reviewed file after file; accept all takes the rest; killing the review rejects", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "a.txt": `${TEN.join("\n")}\n`, "b.txt": "alpha\nbeta\ngamma\n" });
    const patch = ["*** Begin Patch", "*** Update File: a.txt", "@@", " line 1", "-line 2", "+line 2 changed", " line 3", "@@", " line 8", "-line 9", "+line 9 changed", " line 10",
      "*** Update File: b.txt", "@@", " alpha", "-beta", "+BETA", " gamma", "*** End Patch"].join("\n");
    fake.enqueue(
      { toolCalls: [{ name: "apply_patch", input: { patch } }] },
      { text: "Patched." },
      { toolCalls: [{ name: "edit_file", input: { path: "a.txt", target_content: "line 5", replacement_content: "line five" } }] },
      { text: "Left alone." },
    );
    await spec("review-test.el", "agent-lsp-review-files-accept-all", { fake, project, safety: "ask" });
    // b.txt is not open in Emacs: the server wrote the accepted text to disk.
    expect(readFileSync(project.file("b.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    expect(readFileSync(project.file("a.txt"), "utf8")).toBe(`${TEN.join("\n")}\n`);
    expect(lastMessage(fake, 3)).toMatch(/reject|declin|denied|refus/i);
  });

  it("review: a 2 MB rewrite's review opens while a 20 ms timer keeps firing (never 200 ms late); accepting it is one undo step", { timeout: 300_000 }, async () => {
    const lines = 40_000;
    const oldText = Array.from({ length: lines }, (_, i) => `line ${String(i + 1).padStart(6, "0")} of the old text, with some words after it\n`).join("");
    const newText = Array.from({ length: lines }, (_, i) => `LINE ${String(i + 1).padStart(6, "0")} of the new text, with other words after it\n`).join("");
    const { fake, project } = await setup({ "big.txt": oldText, "new.txt": newText });
    fake.enqueue(
      { toolCalls: [{ name: "read_file", input: { path: "big.txt", limit: 5 } }] },
      { toolCalls: [{ name: "write_file", input: { path: "big.txt", content: newText } }] },
      // The 2 MB write in the history (~550k tokens) fills the context: it is compacted first.
      { text: "Summary: big.txt was rewritten whole." },
      { text: "Rewritten." },
    );
    const report = await specLogged("large-test.el", "agent-lsp-review-large", { fake, project, safety: "ask", data: { lines }, timeoutMs: 280_000 });
    console.log(`${editor.name}: ${report}`);
    // The buffer has the rewrite (undone at the end); the disk never changed.
    expect(readFileSync(project.file("big.txt"), "utf8")).toBe(oldText);
    expect(JSON.stringify(fake.requests.map((r) => r.body.messages.at(-1)))).not.toMatch(/declin/i);
  });
});
