import { describe, expect, it } from "vitest";
import {
  ANTHROPIC_BASH,
  ANTHROPIC_TEXT_EDITOR,
  BASH_TIMEOUT_SECS,
  anthropicNativeToolByKind,
  anthropicNativeToolByName,
  rewriteAnthropicNative,
} from "../../../server/src/providers/native/anthropic.js";

const EDITOR = "str_replace_based_edit_tool";
const isDir = (path: string): boolean => path === "src" || path === ".";

describe("rewriteAnthropicNative: calls that run one of our tools", () => {
  const cases: Array<[string, string, unknown, { name: string; input: Record<string, unknown> }]> = [
    ["view a whole file", EDITOR, { command: "view", path: "a.ts" }, { name: "read_file", input: { path: "a.ts" } }],
    [
      "view a range",
      EDITOR,
      { command: "view", path: "a.ts", view_range: [10, 19] },
      { name: "read_file", input: { path: "a.ts", start_line: 10, line_count: 10 } },
    ],
    [
      "view a single line",
      EDITOR,
      { command: "view", path: "a.ts", view_range: [5, 5] },
      { name: "read_file", input: { path: "a.ts", start_line: 5, line_count: 1 } },
    ],
    [
      "view to the end (-1)",
      EDITOR,
      { command: "view", path: "a.ts", view_range: [30, -1] },
      { name: "read_file", input: { path: "a.ts", start_line: 30 } },
    ],
    ["view a directory (predicate)", EDITOR, { command: "view", path: "src" }, { name: "list_files", input: { path: "src", max_depth: 2, hidden: false } }],
    ["view a directory (trailing slash)", EDITOR, { command: "view", path: "lib/" }, { name: "list_files", input: { path: "lib/", max_depth: 2, hidden: false } }],
    [
      "create",
      EDITOR,
      { command: "create", path: "n.txt", file_text: "hello\n" },
      { name: "write_file", input: { path: "n.txt", content: "hello\n" } },
    ],
    [
      "create an empty file",
      EDITOR,
      { command: "create", path: "e.txt", file_text: "" },
      { name: "write_file", input: { path: "e.txt", content: "" } },
    ],
    [
      "str_replace",
      EDITOR,
      { command: "str_replace", path: "a.ts", old_str: "let x", new_str: "const x" },
      { name: "edit_file", input: { path: "a.ts", target_content: "let x", replacement_content: "const x" } },
    ],
    [
      "str_replace without new_str deletes",
      EDITOR,
      { command: "str_replace", path: "a.ts", old_str: "debugger;\n" },
      { name: "edit_file", input: { path: "a.ts", target_content: "debugger;\n", replacement_content: "" } },
    ],
    [
      "insert",
      EDITOR,
      { command: "insert", path: "a.ts", insert_line: 3, insert_text: "// note\n" },
      { name: "edit_file", input: { path: "a.ts", target_content: "", replacement_content: "// note\n", insert_line: 3 } },
    ],
    [
      "insert at the top with the older new_str name",
      EDITOR,
      { command: "insert", path: "a.ts", insert_line: 0, new_str: "#!/bin/sh\n" },
      { name: "edit_file", input: { path: "a.ts", target_content: "", replacement_content: "#!/bin/sh\n", insert_line: 0 } },
    ],
    [
      "bash",
      "bash",
      { command: "npm test" },
      { name: "execute_command", input: { command: "npm test", timeout_secs: BASH_TIMEOUT_SECS } },
    ],
  ];
  it.each(cases)("%s", (_label, tool, input, expected) => {
    expect(rewriteAnthropicNative(tool, input, { isDirectory: isDir })).toEqual(expected);
  });

  it("bash runs with the longest foreground timeout", () => {
    expect(BASH_TIMEOUT_SECS).toBe(600);
  });
});

describe("rewriteAnthropicNative: calls answered without running anything", () => {
  const errors: Array<[string, string, unknown, RegExp]> = [
    ["undo_edit points at /undo", EDITOR, { command: "undo_edit", path: "a.ts" }, /\/undo/],
    ["unknown command", EDITOR, { command: "rename", path: "a.ts" }, /Unknown text editor command "rename"/],
    ["missing command", EDITOR, { path: "a.ts" }, /needs a `command`/],
    ["missing path", EDITOR, { command: "view" }, /`path` is required/],
    ["create without file_text", EDITOR, { command: "create", path: "a" }, /file_text/],
    ["str_replace with empty old_str", EDITOR, { command: "str_replace", path: "a", old_str: "" }, /old_str/],
    ["insert without a line", EDITOR, { command: "insert", path: "a", insert_text: "x" }, /insert_line/],
    ["insert at a negative line", EDITOR, { command: "insert", path: "a", insert_line: -2, insert_text: "x" }, /insert_line/],
    ["insert without text", EDITOR, { command: "insert", path: "a", insert_line: 1 }, /insert_text/],
    ["view_range backwards", EDITOR, { command: "view", path: "a", view_range: [9, 3] }, /ends before it starts/],
    ["view_range from line 0", EDITOR, { command: "view", path: "a", view_range: [0, 3] }, /numbered from 1/],
    ["view_range malformed", EDITOR, { command: "view", path: "a", view_range: [1] }, /two line numbers/],
    ["input not an object", EDITOR, "view a.ts", /JSON object/],
    ["bash without a command", "bash", {}, /`command` is required/],
    ["unknown native tool", "computer", { action: "screenshot" }, /not an Anthropic native tool/],
  ];
  it.each(errors)("%s", (_label, tool, input, message) => {
    const result = rewriteAnthropicNative(tool, input, { isDirectory: isDir });
    expect(result).toHaveProperty("error");
    expect((result as { error: string }).error).toMatch(message);
  });

  it("bash restart is a plain reply, not an error", () => {
    const result = rewriteAnthropicNative("bash", { restart: true });
    expect(result).toEqual({ reply: expect.stringMatching(/restarted/) });
  });
});

describe("Anthropic native tool table", () => {
  it("the text editor stands in for our file tools; bash replaces nothing", () => {
    expect(ANTHROPIC_TEXT_EDITOR).toMatchObject({ name: EDITOR, type: "text_editor_20250728" });
    expect([...ANTHROPIC_TEXT_EDITOR.replaces].sort()).toEqual(["edit_file", "read_file", "write_file"]);
    expect(ANTHROPIC_BASH).toMatchObject({ name: "bash", type: "bash_20250124", replaces: [] });
  });

  it("finds tools by kind and by name", () => {
    expect(anthropicNativeToolByKind("anthropic_bash")).toBe(ANTHROPIC_BASH);
    expect(anthropicNativeToolByName(EDITOR)).toBe(ANTHROPIC_TEXT_EDITOR);
    expect(anthropicNativeToolByKind("openai_apply_patch")).toBeUndefined();
  });
});
