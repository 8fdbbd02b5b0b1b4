/** The SKILL.md front matter: the fields skills use, and a clear error for anything else. */
import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../../server/src/knowledge/front-matter.js";

describe("parseFrontMatter", () => {
  it.each([
    ["plain fields", "---\nname: a\ndescription: 'quoted: yes'\n---\nBody\n", { name: "a", description: "quoted: yes" }, "Body\n"],
    ["an inline list", "---\nallowed_tools: [read_file, \"git_read\"]\n---\n", { allowed_tools: ["read_file", "git_read"] }, ""],
    ["a block list and comments", "---\n# tools\nallowed_tools:\n  - a\n  - b\nrun: main\n---\n\nText", { allowed_tools: ["a", "b"], run: "main" }, "Text"],
    ["CRLF lines", "---\r\nname: a\r\n---\r\nBody\r\n", { name: "a" }, "Body\r\n"],
    ["an empty block", "---\n---\nBody", {}, "Body"],
  ])("%s", (_what, text, fields, body) => {
    expect(parseFrontMatter(text)).toEqual({ fields, body });
  });

  it.each([
    ["no front matter", "# Title\nname: a", "it has no front matter"],
    ["an unclosed block", "---\nname: a\n", "its front matter is not closed by a `---` line"],
    ["a line that is not key: value", "---\nname a\n---\n", "front matter line 2 is not `key: value`: name a"],
    ["an unclosed list", "---\nallowed_tools: [a, b\n---\n", "front matter line 2: the list of allowed_tools is not closed by `]`"],
  ])("refuses %s", (_what, text, message) => {
    expect(() => parseFrontMatter(text)).toThrow(message);
  });
});
