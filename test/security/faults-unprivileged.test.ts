/**
 * A refused permission as an ordinary user: root is never refused, so CI (which runs as root)
 * runs test/security/faults-permission.test.ts again as the user `agentlsp-test` and requires
 * every case of it to pass there. Skips where it cannot switch users, and fails instead under
 * AGENT_LSP_REQUIRE_ALL=1.
 */
import { describe, expect, it } from "vitest";
import { cannotSwitchUser, runAsTestUser, TEST_USER } from "../helpers/as-user.js";
import { REQUIRE_ALL } from "../helpers/xvfb.js";

const missing = cannotSwitchUser();
if (missing && REQUIRE_ALL) throw new Error(`The unprivileged fault run must happen under AGENT_LSP_REQUIRE_ALL=1: ${missing}`);

describe.skipIf(missing !== undefined)(`file-system faults as the unprivileged user ${TEST_USER}`, () => {
  it("passes every case of faults-permission.test.ts", { timeout: 300_000 }, () => {
    const cases = runAsTestUser("test/security/faults-permission.test.ts", 280_000);
    const failed = cases.filter((c) => c.status !== "passed").map((c) => `${c.title} (${c.status}): ${c.failureMessages.join("\n").slice(0, 800)}`);
    expect(failed).toEqual([]);
    expect(cases.map((c) => c.title)).toContain("runs as an ordinary user (the uid the runner expects)");
    expect(cases.length).toBeGreaterThanOrEqual(5);
  });
});
