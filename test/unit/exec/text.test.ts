import { describe, expect, it } from "vitest";
import { AnsiStreamStripper, incompleteEscapeStart, stripAnsi } from "../../../server/src/exec/ansi.js";
import { commandEnv, denyMatcher } from "../../../server/src/exec/env.js";
import { OutputBuffer, splitAtBytes } from "../../../server/src/exec/output-buffer.js";
import { completeUtf8Length, firstCharBoundary } from "../../../server/src/exec/log-file.js";

describe("stripAnsi", () => {
  it.each([
    ["SGR colours", "\x1b[1;31mred\x1b[0m", "red"],
    ["256 and true colour", "\x1b[38;5;196ma\x1b[48;2;1;2;3mb\x1b[m", "ab"],
    ["cursor and erase", "\x1b[2K\x1b[1G\x1b[3Aline\x1b[?25l\x1b[?25h", "line"],
    ["OSC title ended by BEL", "\x1b]0;title\x07text", "text"],
    ["OSC hyperlink ended by ST", "\x1b]8;;https://a.test\x1b\\link\x1b]8;;\x1b\\", "link"],
    ["charset and keypad escapes", "\x1b(Ba\x1b=b\x1b>c\x1b7d\x1b8", "abcd"],
    ["C1 CSI", "\x9b31mx\x9b0m", "x"],
    ["DCS string", "\x1bPq#0;2;0;0;0\x1b\\after", "after"],
    ["text without escapes", "plain [1m text ]0;", "plain [1m text ]0;"],
    ["an unterminated OSC does not eat later text", "\x1b]0;abc\nnext \x1b[1mbold\x1b[0m", "0;abc\nnext bold"],
  ])("%s", (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });
});

describe("AnsiStreamStripper", () => {
  it("holds back a sequence split across chunks until it completes", () => {
    const s = new AnsiStreamStripper();
    expect(s.push("a\x1b[3")).toBe("a");
    expect(s.push("1mred\x1b")).toBe("red");
    expect(s.push("[0m done\x1b]0;ti")).toBe(" done");
    expect(s.push("tle\x07!")).toBe("!");
    expect(s.flush()).toBe("");
  });

  it("flushes a sequence that never completed", () => {
    const s = new AnsiStreamStripper();
    expect(s.push("x\x1b]0;never ended")).toBe("x");
    // Only the introducer is an escape; the rest was text after all.
    expect(s.flush()).toBe("0;never ended");
  });

  it.each([
    ["complete CSI", "a\x1b[0m", -1],
    ["cut CSI", "a\x1b[0", 1],
    ["lone ESC", "ab\x1b", 2],
    ["open OSC", "a\x1b]0;t", 1],
    ["closed OSC", "a\x1b]0;t\x07", -1],
  ])("incompleteEscapeStart: %s", (_name, text, expected) => {
    expect(incompleteEscapeStart(text)).toBe(expected);
  });
});

describe("commandEnv", () => {
  it("always removes the provider keys and removes denied names and patterns", () => {
    const env = commandEnv(
      { ANTHROPIC_API_KEY: "1", OPENAI_API_KEY: "2", GEMINI_API_KEY: "3", GOOGLE_API_KEY: "4", X_TOKEN: "5", AWS_KEY: "6", AWS: "7", PATH: "/bin" },
      ["X_TOKEN", "AWS_*", " "],
    );
    expect(env).toEqual({ AWS: "7", PATH: "/bin" });
  });

  it("matches exact names only unless a pattern says otherwise", () => {
    const deny = denyMatcher(["SECRET"]);
    expect(deny("SECRET")).toBe(true);
    expect(deny("SECRET_2")).toBe(false);
    expect(deny("MY_SECRET")).toBe(false);
    expect(denyMatcher(["*_SECRET"])("MY_SECRET")).toBe(true);
    expect(denyMatcher(["A.B"])("AxB")).toBe(false);
  });
});

describe("OutputBuffer", () => {
  it("keeps everything while under the cap", () => {
    const b = new OutputBuffer(100);
    b.push("hello ");
    b.push("world");
    expect(b.text()).toBe("hello world");
    expect(b.droppedBytes).toBe(0);
  });

  it("keeps head and tail in bytes and never splits a character", () => {
    const b = new OutputBuffer(100);
    for (let i = 0; i < 50; i++) b.push("é€😀|");
    const [head, tail] = b.text().split(/\n\[\.\.\. \d+ bytes of output cut from the middle \.\.\.\]\n/);
    expect(head).not.toContain("\uFFFD");
    expect(tail).not.toContain("\uFFFD");
    expect(Buffer.byteLength(head!)).toBeLessThanOrEqual(30);
    expect(Buffer.byteLength(tail!)).toBeLessThanOrEqual(70);
    expect(tail!.endsWith("é€😀|")).toBe(true);
    expect(Buffer.byteLength(head!) + Buffer.byteLength(tail!) + b.droppedBytes).toBe(50 * Buffer.byteLength("é€😀|"));
  });

  it("gives the newest output for progress", () => {
    const b = new OutputBuffer(100);
    b.push("abc");
    b.push("def");
    expect(b.recent(4)).toBe("cdef");
    for (let i = 0; i < 100; i++) b.push(`${i}\n`);
    expect(b.recent(6)).toBe("98\n99\n");
  });

  it("splitAtBytes cuts on character boundaries", () => {
    expect(splitAtBytes("aé", 2)).toEqual(["a", "é"]);
    expect(splitAtBytes("aé", 2, true)).toEqual(["aé", ""]);
    expect(splitAtBytes("abc", 0)).toEqual(["", "abc"]);
  });
});

describe("UTF-8 boundaries of log reads", () => {
  it("finds a character cut off at either end", () => {
    const euro = Buffer.from("a€", "utf8"); // 61 e2 82 ac
    expect(completeUtf8Length(euro)).toBe(4);
    expect(completeUtf8Length(euro.subarray(0, 3))).toBe(1);
    expect(completeUtf8Length(euro.subarray(0, 2))).toBe(1);
    expect(firstCharBoundary(euro.subarray(2))).toBe(2);
    expect(firstCharBoundary(euro)).toBe(0);
  });
});
