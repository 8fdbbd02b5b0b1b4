/**
 * Each model-native tool speaks its own language (docs/tools.md): calls of Anthropic's text editor
 * and OpenAI's apply_patch run as our tools, on real files, and what comes back names the fields
 * and remedies of the tool the model called, and follows that tool's documented semantics.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../helpers/agent-setup.js";

let h: AgentHarness;
afterEach(async () => {
  await h.dispose();
});

/** Runs the calls in one model message and returns the tool results the model got back, in order. */
async function resultsOf(toolCalls: { name: string; input: unknown }[], api: "anthropic" | "openai" = "anthropic"): Promise<{ text: string; isError: boolean }[]> {
  h.fake.enqueue({ toolCalls }, { text: "done" });
  const id = await h.newSession({ mode: "full_access" });
  await h.prompt(id, "go");
  const body = h.fake.requests[1]!.body;
  if (api === "openai") {
    return body.input.filter((i: any) => i.type === "apply_patch_call_output").map((i: any) => ({ text: i.output ?? "", isError: i.status === "failed" }));
  }
  return body.messages[2].content.map((b: any) => ({
    text: typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join(""),
    isError: b.is_error === true,
  }));
}

const editor = (input: Record<string, unknown>) => ({ name: "str_replace_based_edit_tool", input });

describe("Anthropic's text editor, as its description promises", () => {
  it("str_replace errors name old_str and its own remedy, never edit_file's fields", async () => {
    h = await startAgentHarness();
    writeFileSync(path.join(h.root, "a.py"), "x = 1\nx = 1\n");
    const [dup, missing] = await resultsOf([
      editor({ command: "str_replace", path: "a.py", old_str: "x = 1", new_str: "x = 2" }),
      editor({ command: "str_replace", path: "a.py", old_str: "nothing like it", new_str: "y" }),
    ]);
    expect(dup!.isError).toBe(true);
    expect(dup!.text).toContain("old_str matches 2 locations");
    expect(dup!.text).toContain("make one call for each");
    expect(missing!.text).toContain("old_str was not found");
    for (const r of [dup!, missing!]) expect(r.text).not.toMatch(/allow_multiple|target_content|replacement_content|start_line/);
  });

  it("create refuses an existing file and points to str_replace; a new file is written", async () => {
    h = await startAgentHarness();
    writeFileSync(path.join(h.root, "keep.txt"), "mine\n");
    const [refused, made] = await resultsOf([
      editor({ command: "create", path: "keep.txt", file_text: "theirs\n" }),
      editor({ command: "create", path: "new.txt", file_text: "hello\n" }),
    ]);
    expect(refused!.isError).toBe(true);
    expect(refused!.text).toContain("File already exists at: keep.txt");
    expect(refused!.text).toContain("str_replace");
    expect(readFileSync(path.join(h.root, "keep.txt"), "utf8")).toBe("mine\n");
    expect(made!.isError).toBe(false);
    expect(readFileSync(path.join(h.root, "new.txt"), "utf8")).toBe("hello\n");
  });

  it("insert of empty text changes nothing and is no error", async () => {
    h = await startAgentHarness();
    writeFileSync(path.join(h.root, "a.txt"), "one\n");
    const [r] = await resultsOf([editor({ command: "insert", path: "a.txt", insert_line: 1, insert_text: "" })]);
    expect(r).toMatchObject({ isError: false });
    expect(r!.text).toContain("Nothing to insert");
    expect(readFileSync(path.join(h.root, "a.txt"), "utf8")).toBe("one\n");
  });

  it("view of a folder lists two levels, without hidden entries or node_modules", async () => {
    h = await startAgentHarness();
    for (const d of ["src/deep/deeper", "src/.hidden", "src/node_modules/pkg"]) mkdirSync(path.join(h.root, d), { recursive: true });
    for (const f of ["src/a.ts", "src/deep/b.ts", "src/deep/deeper/c.ts", "src/.env", "src/.hidden/h.ts"]) writeFileSync(path.join(h.root, f), "x\n");
    const [r] = await resultsOf([editor({ command: "view", path: "src" })]);
    const lines = r!.text.split("\n");
    expect(lines).toEqual(expect.arrayContaining(["src/a.ts", "src/deep/", "src/deep/b.ts", "src/deep/deeper/"]));
    expect(r!.text).not.toMatch(/c\.ts|\.env|\.hidden|node_modules/);
  });

  it("view past the end speaks of view_range", async () => {
    h = await startAgentHarness();
    writeFileSync(path.join(h.root, "a.txt"), "one\ntwo\n");
    const [r] = await resultsOf([editor({ command: "view", path: "a.txt", view_range: [9, 10] })]);
    expect(r!.text).toContain("view_range starts at line 9");
  });
});

describe("OpenAI's apply_patch, in its own terms", () => {
  it("a malformed diff line is numbered in the model's diff, named by its operation", async () => {
    h = await startAgentHarness({ api: "openai" });
    writeFileSync(path.join(h.root, "a.py"), "x = 1\n");
    const [r] = await resultsOf(
      [{ name: "apply_patch", nativeKind: "apply_patch_call", input: { type: "update_file", path: "a.py", diff: "@@\n x = 1\nnot a diff line\n" } } as never],
      "openai",
    );
    expect(r!.text).toContain('update_file a.py: line 3 of the diff ("not a diff line")');
  });
});
