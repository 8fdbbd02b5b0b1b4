/**
 * The sandbox as an ordinary user (bubblewrap through unprivileged user namespaces): CI runs as
 * root, so this runs test/security/sandbox.test.ts again as the user `agentlsp-test` (made by
 * .ci/run with useradd), under setpriv, and requires every case of it to pass there. Skips where
 * it cannot switch users (not root, no such user), and fails instead under
 * AGENT_LSP_REQUIRE_ALL=1.
 */
import { describe, expect, it } from "vitest";
import { cannotSwitchUser, runAsTestUser, TEST_USER } from "../helpers/as-user.js";
import { skipWithoutSandbox } from "../helpers/sandbox.js";
import { REQUIRE_ALL } from "../helpers/xvfb.js";

const missing = cannotSwitchUser();
if (missing && REQUIRE_ALL) throw new Error(`The unprivileged sandbox run must happen under AGENT_LSP_REQUIRE_ALL=1: ${missing}`);

describe.skipIf(skipWithoutSandbox() || missing !== undefined)(`the sandbox as the unprivileged user ${TEST_USER}`, () => {
  it("passes every case of sandbox.test.ts", { timeout: 300_000 }, () => {
    const cases = runAsTestUser("test/security/sandbox.test.ts", 280_000);
    const failed = cases.filter((c) => c.status === "failed").map((c) => `${c.title}: ${c.failureMessages.join("\n").slice(0, 800)}`);
    expect(failed).toEqual([]);
    // Everything ran but the root-only case, including the check that it ran as the user.
    expect(cases.filter((c) => c.status !== "passed").map((c) => c.title)).toEqual([expect.stringMatching(/^drops every capability/)]);
    expect(cases.map((c) => c.title)).toContain("really runs as that user");
    expect(cases.filter((c) => c.status === "passed").length).toBeGreaterThanOrEqual(10);
  });
});
