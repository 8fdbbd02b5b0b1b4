/**
 * The sandbox as an ordinary user (bubblewrap through unprivileged user namespaces): CI runs as
 * root, so this runs test/security/sandbox.test.ts again as the user `agentlsp-test` (made by
 * .ci/run with useradd), under setpriv, and requires every case of it to pass there. Skips where
 * it cannot switch users (not root, no such user), and fails instead under
 * AGENT_LSP_REQUIRE_ALL=1.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { skipWithoutSandbox } from "../helpers/sandbox.js";
import { REQUIRE_ALL } from "../helpers/xvfb.js";

const USER = process.env.AGENT_LSP_TEST_USER ?? "agentlsp-test";
const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Why the suite cannot switch to the user, or undefined. */
function cannotSwitch(): string | undefined {
  if (process.getuid?.() !== 0) return "only root can run a suite as another user";
  if (spawnSync("id", ["-u", USER]).status !== 0) return `there is no user ${USER} (useradd -m ${USER})`;
  if (spawnSync("sh", ["-c", "command -v setpriv"]).status !== 0) return "setpriv is missing (util-linux)";
  const reads = spawnSync("setpriv", ["--reuid", USER, "--regid", USER, "--init-groups", "--", "test", "-r", path.join(REPO, "package.json")]);
  if (reads.status !== 0) return `${USER} cannot read the clone at ${REPO} (every folder above it needs o+x, as .ci/run gives)`;
  return undefined;
}

const missing = cannotSwitch();
if (missing && REQUIRE_ALL) throw new Error(`The unprivileged sandbox run must happen under AGENT_LSP_REQUIRE_ALL=1: ${missing}`);

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

describe.skipIf(skipWithoutSandbox() || missing !== undefined)(`the sandbox as the unprivileged user ${USER}`, () => {
  it("passes every case of sandbox.test.ts", { timeout: 300_000 }, () => {
    const uid = spawnSync("id", ["-u", USER], { encoding: "utf8" }).stdout.trim();
    const out = mkdtempSync(path.join("/var/tmp", "agent-lsp-unprivileged-"));
    chmodSync(out, 0o777);
    try {
      const report = path.join(out, "report.json");
      // The runner config loader reads vitest.config.ts in memory: the user may not write node_modules.
      const run = spawnSync(
        "setpriv",
        ["--reuid", USER, "--regid", USER, "--init-groups", "--", path.join(REPO, "node_modules/.bin/vitest"), "run", "--config", "test/vitest.config.ts", "--configLoader", "runner", "test/security/sandbox.test.ts", "--reporter=json", `--outputFile=${report}`],
        { cwd: REPO, encoding: "utf8", timeout: 280_000, env: { PATH: process.env.PATH, HOME: out, AGENT_LSP_EXPECT_UID: uid, AGENT_LSP_REQUIRE_ALL: "1" } },
      );
      let parsed: Report;
      try {
        parsed = JSON.parse(readFileSync(report, "utf8")) as Report;
      } catch {
        throw new Error(`the run as ${USER} wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
      }
      const cases = parsed.testResults.flatMap((f) => f.assertionResults);
      const failed = cases.filter((c) => c.status === "failed").map((c) => `${c.title}: ${c.failureMessages.join("\n").slice(0, 800)}`);
      expect(failed).toEqual([]);
      // Everything ran but the root-only case, including the check that it ran as the user.
      expect(cases.filter((c) => c.status !== "passed").map((c) => c.title)).toEqual([expect.stringMatching(/^drops every capability/)]);
      expect(cases.map((c) => c.title)).toContain("really runs as that user");
      expect(parsed.numPassedTests).toBeGreaterThanOrEqual(10);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
