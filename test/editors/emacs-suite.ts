/**
 * The frame of every Emacs test file: one describe block per Emacs of the matrix (28 from
 * bookworm, 30 from trixie), the package byte-compiled once per Emacs and file (a warning
 * fails), and `spec` to run one ERT test of test/editors/emacs/ against the compiled package.
 * An Emacs that is not installed skips its cases, or fails them under AGENT_LSP_REQUIRE_ALL=1
 * (CI).
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, it } from "vitest";
import { compilePackage, expectPassed, findEmacsen, removeCompiled, runSpec, type EmacsEditor, type EmacsResult, type EmacsSpecOptions } from "./emacs-harness.js";
import { SERVER_BUNDLE } from "./nvim-harness.js";

/** The time a case may take. */
export const TIMEOUT = 120_000;
/** CI: a missing editor or component fails instead of skipping. */
export const requireAll = process.env.AGENT_LSP_REQUIRE_ALL === "1";

/** What a case gets to run its ERT tests. */
export interface EmacsSpecs {
  /** Runs one ERT test and fails unless it passed. */
  spec(file: string, test: string, options: Omit<EmacsSpecOptions, "compiled">): Promise<EmacsResult>;
  /** The same, returning the lines the test reported with `message` that start with `prefix:`. */
  specLogged(file: string, test: string, options: Omit<EmacsSpecOptions, "compiled">, prefixes?: string[]): Promise<string>;
  /** The folder of the compiled package (undefined when it did not compile), and what compiling printed. */
  compiled(): { dir: string | undefined; output: string };
}

/** Declares `cases` for every Emacs of the matrix. */
export function emacsSuite(cases: (editor: EmacsEditor, specs: EmacsSpecs) => void): void {
  beforeAll(() => {
    if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build first`);
  });
  for (const editor of findEmacsen()) {
    describe(editor.name, () => {
      if (editor.available) {
        cases(editor, compiledSpecs(editor));
      } else if (requireAll) {
        it("is installed", () => {
          throw new Error(`AGENT_LSP_REQUIRE_ALL=1 but ${editor.reason}`);
        });
      } else {
        it.skip(`skipped: ${editor.reason}`, () => undefined);
      }
    });
  }
}

function compiledSpecs(editor: EmacsEditor): EmacsSpecs {
  let dir: string | undefined;
  let output = "";
  beforeAll(async () => {
    const res = await compilePackage(editor);
    dir = res.ok ? res.dir : undefined;
    output = res.output;
    if (!res.ok) removeCompiled(res.dir);
  }, TIMEOUT);
  afterAll(() => removeCompiled(dir));

  const spec: EmacsSpecs["spec"] = async (file, test, options) => {
    if (!dir) throw new Error(`the package did not byte-compile cleanly:\n${output}`);
    const res = await runSpec(editor, file, test, { ...options, compiled: dir });
    expectPassed(res, `${file} ${test}`);
    return res;
  };
  return {
    spec,
    async specLogged(file, test, options, prefixes = ["benchmark", "typing"]) {
      const res = await spec(file, test, options);
      const pattern = new RegExp(`^(${prefixes.join("|")}):`);
      return res.stderr.split("\n").filter((l) => pattern.test(l)).join("; ");
    },
    compiled: () => ({ dir, output }),
  };
}
