/**
 * Runs a test file again as the ordinary user CI makes (`agentlsp-test`, useradd in .ci/run),
 * under setpriv: what root is never refused (a permission) can only be tested as someone else.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The ordinary user. */
export const TEST_USER = process.env.AGENT_LSP_TEST_USER ?? "agentlsp-test";
const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Why this process cannot run a file as {@link TEST_USER}, or undefined. */
export function cannotSwitchUser(): string | undefined {
  if (process.getuid?.() !== 0) return "only root can run a suite as another user";
  if (spawnSync("id", ["-u", TEST_USER]).status !== 0) return `there is no user ${TEST_USER} (useradd -m ${TEST_USER})`;
  if (spawnSync("sh", ["-c", "command -v setpriv"]).status !== 0) return "setpriv is missing (util-linux)";
  const reads = spawnSync("setpriv", ["--reuid", TEST_USER, "--regid", TEST_USER, "--init-groups", "--", "test", "-r", path.join(REPO, "package.json")]);
  if (reads.status !== 0) return `${TEST_USER} cannot read the clone at ${REPO} (every folder above it needs o+x, as .ci/run gives)`;
  // vitest runs under the node on PATH: one installed under /root (nvm) is out of the user's reach.
  const node = spawnSync("setpriv", ["--reuid", TEST_USER, "--regid", TEST_USER, "--init-groups", "--", "sh", "-c", "node --version"], { env: { PATH: process.env.PATH } });
  if (node.status !== 0) return `${TEST_USER} cannot run node from PATH (${process.execPath}: it must lie where every user can reach it, as /usr/bin/node does)`;
  return undefined;
}

/** One case of the run. */
export interface UserRunCase {
  title: string;
  status: string;
  failureMessages: string[];
}

/**
 * Runs `file` (relative to the clone) as the user, with a home of its own, and returns its cases;
 * the run sees `AGENT_LSP_EXPECT_UID` (the user's uid) so it can check whom it runs as.
 */
export function runAsTestUser(file: string, timeoutMs: number): UserRunCase[] {
  const uid = spawnSync("id", ["-u", TEST_USER], { encoding: "utf8" }).stdout.trim();
  const out = mkdtempSync(path.join("/var/tmp", "agent-lsp-as-user-"));
  chmodSync(out, 0o777);
  try {
    const report = path.join(out, "report.json");
    // The runner config loader reads vitest.config.ts in memory: the user may not write node_modules.
    const run = spawnSync(
      "setpriv",
      ["--reuid", TEST_USER, "--regid", TEST_USER, "--init-groups", "--", path.join(REPO, "node_modules/.bin/vitest"), "run", "--config", "test/vitest.config.ts", "--configLoader", "runner", file, "--reporter=json", `--outputFile=${report}`],
      { cwd: REPO, encoding: "utf8", timeout: timeoutMs, env: { PATH: process.env.PATH, HOME: out, AGENT_LSP_EXPECT_UID: uid, AGENT_LSP_REQUIRE_ALL: "1" } },
    );
    let parsed: { testResults: { assertionResults: UserRunCase[] }[] };
    try {
      parsed = JSON.parse(readFileSync(report, "utf8")) as typeof parsed;
    } catch {
      throw new Error(`the run as ${TEST_USER} wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    }
    return parsed.testResults.flatMap((f) => f.assertionResults);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
