/** History normalisation before every model call: pairing repairs, merged user turns, image limit. */
import { describe, expect, it } from "vitest";
import { limitImages, normalizeHistory } from "../../../server/src/agent/turn/normalize.js";
import type { ContentBlock, Message } from "../../../server/src/vocabulary/messages.js";

const img = (n: number) => ({ type: "image" as const, mediaType: "image/png", data: `img${n}` });
const text = (t: string) => ({ type: "text" as const, text: t });
const call = (id: string) => ({ type: "tool_call" as const, id, name: "read_file", input: {} });
const result = (id: string, content: ContentBlock[] = [text("ok")]) => ({ type: "tool_result" as const, toolCallId: id, name: "read_file", isError: false, content });

describe("normalizeHistory", () => {
  it("answers tool calls left open by a crash or cancel", () => {
    const history: Message[] = [
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [call("a"), call("b")] },
      { role: "tool", content: [result("a")] },
      { role: "user", content: [text("next")] },
    ];
    const out = normalizeHistory(history);
    expect(out[2]).toMatchObject({ role: "tool", content: [{ toolCallId: "a" }, { toolCallId: "b", isError: true }] });
    expect(out).toHaveLength(4);
  });

  it("adds a tool turn when the calls got no results at all", () => {
    const out = normalizeHistory([
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [text("calling"), call("a")] },
    ]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(JSON.stringify(out[2])).toContain("Interrupted");
  });

  it("merges consecutive user turns (a failed turn left no answer)", () => {
    const out = normalizeHistory([
      { role: "user", content: [text("one")] },
      { role: "user", content: [text("two")] },
    ]);
    expect(out).toEqual([{ role: "user", content: [text("one"), text("two")] }]);
  });

  it("does not change a well-formed history", () => {
    const history: Message[] = [
      { role: "user", content: [text("go")] },
      { role: "assistant", content: [call("a")] },
      { role: "tool", content: [result("a")] },
      { role: "assistant", content: [text("done")] },
    ];
    expect(normalizeHistory(history)).toEqual(history);
  });
});

describe("limitImages", () => {
  it.each([
    [2, 0],
    [3, 0],
    [5, 2],
  ])("with %i images replaces the %i oldest by a note", (count, dropped) => {
    const history: Message[] = Array.from({ length: count }, (_, i) => ({ role: "user" as const, content: [img(i)] }));
    const out = limitImages(history, 3);
    const kept = out.flatMap((m) => (m.role === "user" ? m.content : [])).filter((b) => b.type === "image");
    expect(kept.map((b) => (b as { data: string }).data)).toEqual(Array.from({ length: count }, (_, i) => `img${i}`).slice(dropped));
    if (dropped) expect(JSON.stringify(out[0])).toContain("older image");
  });

  it("counts images inside tool results, newest last", () => {
    const history: Message[] = [
      { role: "user", content: [img(1), img(2)] },
      { role: "assistant", content: [call("a")] },
      { role: "tool", content: [result("a", [text("shot"), img(3), img(4)])] },
    ];
    const out = limitImages(history, 3);
    const first = out[0] as unknown as { content: { type: string }[] };
    expect(first.content.map((b) => b.type)).toEqual(["text", "image"]);
    expect(JSON.stringify(out[2])).toContain("img4");
  });
});
