/**
 * The Emacs package in real batch Emacs (28 from bookworm, 30 from trixie), driving the built
 * server against the fake provider. The package is byte-compiled once per Emacs (a warning
 * fails); each case runs one ERT test of test/editors/emacs/ and then checks what the model was
 * sent and what reached the disk. An Emacs that is not installed skips its cases, or fails them
 * under AGENT_LSP_REQUIRE_ALL=1 (CI).
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { checkdoc, compilePackage, expectPassed, findEmacsen, removeCompiled, runSpec, type EmacsEditor, type EmacsSpecOptions } from "./emacs-harness.js";
import { createProject, SERVER_BUNDLE, type SpecProject } from "./nvim-harness.js";

const TIMEOUT = 120_000;
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

/** The text of the last user message the model was sent in request `request`. */
function lastUserText(f: FakeProvider, request = -1): string {
  const messages = f.requests.at(request)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "user").at(-1)?.content);
}

function emacsCases(editor: EmacsEditor): void {
  let compiled: string | undefined;
  let compileOutput = "";
  beforeAll(async () => {
    const res = await compilePackage(editor);
    compiled = res.ok ? res.dir : undefined;
    compileOutput = res.output;
    if (!res.ok) removeCompiled(res.dir);
  }, TIMEOUT);
  afterAll(() => removeCompiled(compiled));

  const spec = async (file: string, test: string, options: Omit<EmacsSpecOptions, "compiled">) => {
    if (!compiled) throw new Error(`the package did not byte-compile cleanly:\n${compileOutput}`);
    expectPassed(await runSpec(editor, file, test, { ...options, compiled }), `${file} ${test}`);
  };

  it("byte-compiles without a warning and checkdoc finds nothing", { timeout: TIMEOUT }, async () => {
    expect(compiled, compileOutput).toBeDefined();
    expect(await checkdoc(editor)).toBe("");
  });

  it("chat: a prompt streams in, a tool call is one folded line, usage is shown", { timeout: TIMEOUT }, async () => {
    const { fake, project } = await setup({ "notes.txt": "some notes\n" });
    const answer = "Hello from the fake model, streamed in small pieces.";
    fake.enqueue(
      { text: answer, usage: { input: 12, output: 5 }, chunkSize: 4, chunkDelayMs: 40 },
      { toolCalls: [{ name: "no_such_tool", input: { path: "missing.txt" } }] },
      { text: "Done with tools." },
    );
    await spec("chat-test.el", "agent-lsp-chat-streams", { fake, project, data: { answer } });
    expect(lastUserText(fake, 0)).toContain("Say hello");
    expect(lastUserText(fake, 1)).toContain("Now use a tool");
    expect(fake.requests).toHaveLength(3);
    expect(fake.violations).toEqual([]);
  });
}

for (const editor of findEmacsen()) {
  describe(editor.name, () => {
    if (editor.available) {
      emacsCases(editor);
    } else if (requireAll) {
      it("is installed", () => {
        throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`);
      });
    } else {
      it.skip(`skipped: ${editor.reason}`, () => undefined);
    }
  });
}
