/**
 * The Neovim plugin in real headless Neovim (0.7 from bookworm, 0.10 from trixie), driving the
 * built server against the fake provider. Each case runs one Lua spec of test/editors/nvim/
 * and then checks what the model was sent and what reached the disk. A Neovim that is not
 * installed skips its cases, or fails them under AGENT_LSP_REQUIRE_ALL=1 (CI).
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { createProject, expectPassed, findEditors, runSpec, SERVER_BUNDLE, type NvimEditor, type SpecProject } from "./nvim-harness.js";

const TIMEOUT = 90_000;
const requireAll = process.env.AGENT_LSP_REQUIRE_ALL === "1";

let fake: FakeProvider | undefined;
let project: SpecProject | undefined;
afterEach(async () => {
  await fake?.close();
  project?.dispose();
  fake = undefined;
  project = undefined;
});

beforeAll(() => {
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build first`);
});

async function setup(files: Record<string, string>): Promise<{ fake: FakeProvider; project: SpecProject }> {
  fake = await startFakeProvider();
  project = createProject(files);
  return { fake, project };
}

/** The text of the last user message the model was sent. */
function lastUserText(f: FakeProvider, request = -1): string {
  const messages = f.requests.at(request)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "user").at(-1)?.content);
}

function nvimCases(editor: NvimEditor): void {
  it("chat: streams the answer, shows usage, folds a tool call with its status", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    const answer = "Hello from the fake model, streamed in small pieces.";
    fake.enqueue(
      { text: answer, usage: { input: 12, output: 5 }, chunkSize: 4, chunkDelayMs: 40 },
      { toolCalls: [{ name: "no_such_tool", input: { path: "missing.txt" } }] },
      { text: "Done with tools." },
    );
    expectPassed(await runSpec(editor, "chat_spec.lua", { fake, project, data: { answer } }), "chat_spec.lua");
    expect(lastUserText(fake, 0)).toContain("Say hello");
    expect(fake.requests).toHaveLength(3);
    expect(fake.violations).toEqual([]);
  });
}

for (const editor of findEditors()) {
  describe(editor.name, () => {
    if (editor.available) {
      nvimCases(editor);
    } else if (requireAll) {
      it("is installed", () => {
        throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`);
      });
    } else {
      it.skip(`skipped: ${editor.reason}`, () => undefined);
    }
  });
}

export { readFileSync };
