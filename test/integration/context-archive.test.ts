/**
 * context_archive reads a message larger than one page (32,000 characters) back whole, page by
 * page, and refuses message numbers, offsets and pages that do not exist, naming what does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The text of each tool result in the last request the fake received. */
function results(): { text: string; isError: boolean }[] {
  return h!.fake.requests.at(-1)!.body.messages.at(-1).content.map((r: any) => ({ text: r.content.map((c: any) => c.text).join(""), isError: r.is_error === true }));
}

describe("context_archive", () => {
  it("pages a 70,000-character message with char_offset and reads it back whole", async () => {
    h = await startAgentHarness();
    const id = await h.newSession();
    const big = Array.from({ length: 7000 }, (_, i) => `line${String(i).padStart(6, "0")}`).join("");
    expect(big.length).toBe(70_000);
    h.fake.enqueue(
      { text: "seen" },
      {
        toolCalls: [
          { name: "context_archive", input: { message: 1 } },
          { name: "context_archive", input: { message: 1, char_offset: 32_000 } },
          { name: "context_archive", input: { message: 1, char_offset: 64_000 } },
        ],
      },
      { text: "done" },
    );
    await h.prompt(id, big);
    await h.prompt(id, "read it back");
    const [p1, p2, p3] = results();
    expect(p1!.text).toMatch(/^#1 \(user, .*, in context\), characters 0-32000 of 70\d\d\d/);
    expect(p1!.text).toContain("call again with message: 1, char_offset: 32000");
    expect(p2!.text).toContain("characters 32000-64000 of");
    const body = (t: string) => t.split("\n")[1]!;
    const whole = body(p1!.text) + body(p2!.text) + body(p3!.text);
    expect(whole.startsWith(big)).toBe(true);
    expect(p3!.text).not.toContain("call again");
  });

  it("refuses what does not exist, naming what does", async () => {
    h = await startAgentHarness();
    const id = await h.newSession();
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "context_archive", input: { message: 99 } },
          { name: "context_archive", input: { message: 1, char_offset: 5000 } },
          { name: "context_archive", input: { page: 7 } },
          { name: "context_archive", input: { query: "HELLO" } },
          { name: "context_archive", input: {} },
        ],
      },
      { text: "ok" },
    );
    await h.prompt(id, "hello there");
    const [missing, offset, page, search, list] = results();
    expect(missing).toEqual({ isError: true, text: "No message #99: the log holds messages #1 to #2." });
    expect(offset).toMatchObject({ isError: true, text: expect.stringMatching(/char_offset 5000 is past the end of message #1 \(\d+ characters\)/) });
    expect(page).toMatchObject({ isError: true, text: expect.stringContaining("Page 7 does not exist: 2 message(s) in the log fill 1 page(s).") });
    expect(search!.text).toMatch(/^1 message\(s\) matching "HELLO":\n#1 user: hello there/);
    expect(list!.text).toMatch(/^2 message\(s\) in the log:\n#1 user: hello there\n#2 assistant: \[tool call context_archive/);
  });
});
