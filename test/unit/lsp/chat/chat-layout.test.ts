/**
 * The chat file's pieces (lsp/chat/chat-layout.ts): the server's transcript and the user's draft
 * and answer lines, kept apart through the buffer's changes; edits only where the buffer differs
 * from the record, as whole lines.
 */
import { describe, expect, it } from "vitest";
import { ChatLayout, type OffsetEdit } from "../../../../server/src/lsp/chat/chat-layout.js";

/** Applies offset edits (in document order) to a text. */
function apply(text: string, edits: OffsetEdit[]): string {
  let out = text;
  for (const e of [...edits].reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** A layout as the buffer has it: transcript, draft heading, draft. */
function synced(transcript: string, draft = "\n"): ChatLayout {
  return new ChatLayout([
    { key: "t", owner: "server", text: transcript, present: true },
    { key: "heading", owner: "server", text: "## You\n", present: true },
    { key: "draft", owner: "user", text: draft, present: true },
  ]);
}

/** Writes what the layout wants, as an editor that applies every edit would. */
function write(layout: ChatLayout): string {
  const next = apply(layout.current(), layout.edits());
  layout.markSent();
  layout.landed();
  expect(layout.align(next)).toBe(true);
  return next;
}

describe("the chat layout", () => {
  it("streams the answer above the draft heading while the user types at the end: no interleaving", () => {
    const layout = synced("## Agent\n\n");
    let buffer = layout.current();
    for (const [i, chunk] of ["Streamed ", "answer, ", "with some ", "words.\nLine 2."].entries()) {
      layout.append("t", chunk);
      const edits = layout.edits();
      // Every edit is inside the transcript: it ends before the draft heading's line.
      expect(edits.every((e) => e.end <= layout.span("heading").start)).toBe(true);
      layout.markSent();
      buffer = apply(buffer, edits);
      // The user types at the very end meanwhile.
      buffer += `Next question part ${i} `;
      expect(layout.align(buffer)).toBe(true);
    }
    expect(buffer).toBe("## Agent\n\nStreamed answer, with some words.\nLine 2.\n## You\n\nNext question part 0 Next question part 1 Next question part 2 Next question part 3 ");
    expect(layout.text("draft")).toBe("\nNext question part 0 Next question part 1 Next question part 2 Next question part 3 ");
    expect(layout.damaged()).toEqual([]);
  });

  it("a partial line is written as a whole line and rewritten as it grows (a save mid-stream never splits it)", () => {
    const layout = synced("");
    layout.append("t", "Hel");
    expect(write(layout)).toBe("Hel\n## You\n\n");
    layout.append("t", "lo there\nand more");
    const edits = layout.edits();
    expect(edits).toEqual([{ start: 0, end: 4, text: "Hello there\nand more\n" }]);
    expect(write(layout)).toBe("Hello there\nand more\n## You\n\n");
  });

  it("an edit that lands while the record grew is the server's, not damage", () => {
    const layout = synced("## Agent\n\n");
    layout.append("t", "one\n");
    const sent = apply(layout.current(), layout.edits());
    layout.markSent();
    layout.append("t", "two\n");
    expect(layout.align(sent)).toBe(true);
    expect(layout.damaged()).toEqual([]);
    expect(apply(sent, layout.edits())).toBe("## Agent\n\none\ntwo\n## You\n\n");
  });

  it("an undo inside the transcript is tracked to its piece and put back; the draft stays as typed", () => {
    const layout = synced("## Agent\n\nLine 1 of the answer.\nLine 2 now streamed.\n", "\nmy next prompt\n");
    const before = layout.current();
    // `u` took back the last batch of the answer.
    const undone = before.replace("Line 2 now streamed.\n", "");
    expect(layout.align(undone)).toBe(false);
    layout.track(undone);
    expect(layout.damaged()).toEqual(["t"]);
    expect(layout.text("draft")).toBe("\nmy next prompt\n");
    const repaired = apply(undone, layout.edits());
    expect(repaired).toBe(before);
    expect(layout.align(repaired)).toBe(true);
    expect(layout.damaged()).toEqual([]);
  });

  it("a stray character typed into the transcript is removed; the same typed in the draft is kept", () => {
    const layout = synced("## Agent\n\nanswer\n");
    const text = layout.current();
    const stray = text.replace("answer", "answxer");
    layout.track(stray);
    expect(apply(stray, layout.edits())).toBe(text);
    const fresh = synced("## Agent\n\nanswer\n");
    expect(fresh.align(`${text}x`)).toBe(true);
    expect(fresh.edits()).toEqual([]);
  });

  it("a waiting block's answer lines are the user's; the lines around them the server's", () => {
    const layout = synced("## Agent\n\n");
    layout.insert({ key: "head", owner: "server", text: "### Approval needed (#ab12cd34): run\n\nPick...\n" }, "heading");
    layout.insert({ key: "hole", owner: "user", text: "\n" }, "heading");
    layout.insert({ key: "tail", owner: "server", text: "_#ab12cd34 waits for your answer_\n\n" }, "heading");
    let buffer = write(layout);
    expect(buffer).toBe("## Agent\n\n### Approval needed (#ab12cd34): run\n\nPick...\n\n_#ab12cd34 waits for your answer_\n\n## You\n\n");
    // The user writes a reason on the empty line under the block.
    const at = buffer.indexOf("\n_#ab12cd34");
    buffer = `${buffer.slice(0, at)}not now, tests first${buffer.slice(at)}`;
    expect(layout.align(buffer)).toBe(true);
    expect(layout.text("hole")).toBe("not now, tests first\n");
    expect(layout.edits()).toEqual([]);
    // Answered: the reason becomes part of the record, the tail says how it ended.
    layout.freeze("hole");
    layout.set("tail", "_#ab12cd34: rejected: not now, tests first_\n\n");
    buffer = write(layout);
    expect(buffer).toContain("not now, tests first\n_#ab12cd34: rejected: not now, tests first_\n\n## You\n\n");
  });

  it("a block added but not yet written: the buffer without it still aligns, its answer line empty", () => {
    const layout = synced("## Agent\n\n", "\nmy draft\n");
    const before = layout.current();
    layout.insert({ key: "head", owner: "server", text: "### Question (#ab12cd34): name?\n" }, "heading");
    layout.insert({ key: "hole", owner: "user", text: "\n" }, "heading");
    layout.insert({ key: "tail", owner: "server", text: "_#ab12cd34 waits for your answer_\n\n" }, "heading");
    expect(layout.align(before)).toBe(true);
    expect(layout.text("hole")).toBe("");
    expect(layout.text("draft")).toBe("\nmy draft\n");
  });

  it("sections of two turns grow in place, each in its own order; new pieces added at one place keep their order", () => {
    const layout = new ChatLayout([
      { key: "one", owner: "server", text: "## You\n\nfirst\n\n## Agent\n\n", present: true },
      { key: "heading", owner: "server", text: "## You\n", present: true },
      { key: "draft", owner: "user", text: "\n", present: true },
    ]);
    layout.insert({ key: "session", owner: "server", text: "# Session s-2\n\n" }, "heading");
    layout.insert({ key: "two", owner: "server", text: "## You\n\nsecond\n\n## Agent\n\n" }, "heading");
    layout.append("two", "answer two\n");
    write(layout);
    layout.append("one", "answer one\n");
    const text = write(layout);
    expect(text).toBe("## You\n\nfirst\n\n## Agent\n\nanswer one\n# Session s-2\n\n## You\n\nsecond\n\n## Agent\n\nanswer two\n## You\n\n");
  });

  it("a cleared draft: the server takes out what it sent, worked out from the draft when the edit is made", () => {
    const layout = synced("", "\nSend this\n");
    layout.change("draft", (have) => have.replace("Send this\n", ""));
    expect(apply(layout.current(), layout.edits())).toBe("## You\n\n");
    // An edit sent before the change does not carry it: its landing leaves the change waiting.
    layout.landed();
    expect(layout.edits()).not.toEqual([]);
    // The user typed more before the edit was made: what they typed stays.
    expect(layout.align("## You\n\nSend this\nand this\n")).toBe(true);
    expect(write(layout)).toBe("## You\n\nand this\n");
    expect(layout.edits()).toEqual([]);
    // Landed: typing the same words again is the user's own.
    expect(layout.align("## You\n\nand this\nSend this\n")).toBe(true);
    expect(layout.edits()).toEqual([]);
  });

  it("a file that gains text before the server wrote its first piece keeps it as the draft's", () => {
    const layout = new ChatLayout([
      { key: "preamble", owner: "server", text: "# Agent chat\n\n" },
      { key: "heading", owner: "server", text: "## You\n" },
      { key: "draft", owner: "user", text: "\n" },
    ]);
    layout.track("typed first");
    expect(apply(layout.current(), layout.edits())).toBe("# Agent chat\n\n## You\ntyped first");
  });
});
