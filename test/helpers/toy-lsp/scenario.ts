/**
 * The editor tests' language-service scenario, the same in Neovim and Emacs: a toy project of
 * two files (and the words main.toy uses), the model's three turns (find_references, a rename
 * across both files, an edit that the toy server flags), and what the model must get back.
 */
import { expect } from "vitest";
import type { FakeProvider } from "../fake-provider/index.js";

export const TOY_LIB = "def greet = hello\ndef hello = world\ndef world = world\n";
export const TOY_MAIN = "def main = greet\nuse greet twice greet\n";

/** The project's files. */
export const TOY_FILES = { "lib.toy": TOY_LIB, "main.toy": TOY_MAIN, "words.toy": "def use = 1\ndef twice = 2\n" };

/** Queues the model's turns: each tool call, then a short answer the editor test waits for. */
export function enqueueToyTurns(fake: FakeProvider): void {
  fake.enqueue(
    { toolCalls: [{ name: "find_references", input: { path: "main.toy", line: 2, symbol: "greet" } }] },
    { text: "Four places." },
    { toolCalls: [{ name: "rename_symbol", input: { path: "lib.toy", line: 1, symbol: "greet", new_name: "salute" } }] },
    { text: "Renamed." },
    { toolCalls: [{ name: "edit_file", input: { path: "main.toy", target_content: "twice", replacement_content: "thrice" } }] },
    { text: "Oops." },
  );
}

/** The text of the tool result the model was sent in request `request`. */
export function toolResultText(fake: FakeProvider, request: number): string {
  const messages = fake.requests[request]!.body.messages as any[];
  const result = messages.at(-1).content.find((b: any) => b.type === "tool_result");
  return typeof result.content === "string" ? result.content : result.content.map((c: any) => c.text).join("\n");
}

/** What find_references answers about greet. */
export const TOY_REFERENCES = ["4 references:", "lib.toy:1:5: def greet = hello", "main.toy:1:12: def main = greet", "main.toy:2:5: use greet twice greet", "main.toy:2:17: use greet twice greet"].join("\n");

/** The start of rename_symbol's result. */
export const TOY_RENAMED = /^Renamed to salute: 4 edits in 2 files:\n {2}lib\.toy \(1 edit\)\n {2}main\.toy \(3 edits\)\n/;

/** The diagnostics the edit's result ends with. */
export const TOY_EDIT_DIAGNOSTIC = "The editor's language servers report 1 error in the changed files:\nmain.toy:2:12: error [toy] unknown name 'thrice'";

/** Checks the three results the model got. */
export function expectToyResults(fake: FakeProvider): void {
  expect(toolResultText(fake, 1)).toBe(TOY_REFERENCES);
  expect(toolResultText(fake, 3)).toMatch(TOY_RENAMED);
  expect(toolResultText(fake, 5)).toContain(TOY_EDIT_DIAGNOSTIC);
}
