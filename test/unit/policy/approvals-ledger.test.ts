/**
 * The approvals record (approvals-ledger.ts) behind "a revocation is for good": its generation
 * never goes back, a record that cannot be read grants nothing and is never saved over, and an
 * entry revoked then approved again is written once.
 */
import { copyFileSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approvalsPath } from "../../../server/src/policy/approvals-file.js";
import { LedgerMovedOn, ledgerPath, readLedger, writeLedger } from "../../../server/src/policy/approvals-ledger.js";
import { ApprovalBook } from "../../../server/src/policy/rule-book.js";
import type { ApprovalRule } from "../../../server/src/policy/rules.js";
import { fill, MOUNT_PROBLEM, mountTmpfs } from "../../helpers/mounts.js";
import { tempRoot } from "./setup.js";

function userPlaces(root: string) {
  return { stateDir: path.join(root, "user", "state"), configDir: path.join(root, "user", "config"), home: path.join(root, "user") };
}

const MAKE: ApprovalRule = { kind: "program", program: "make" };

describe("the approvals record", () => {
  it("never goes back to an older generation", async () => {
    const root = realpathSync(tempRoot());
    const stateDir = userPlaces(root).stateDir;
    await writeLedger(stateDir, root, { generation: 2, entries: ["a"] });
    await expect(writeLedger(stateDir, root, { generation: 1, entries: ["b"] })).rejects.toBeInstanceOf(LedgerMovedOn);
    expect(await readLedger(stateDir, root)).toEqual({ generation: 2, entries: ["a"] });
    await writeLedger(stateDir, root, { generation: 2, entries: ["c"] });
    expect(await readLedger(stateDir, root)).toEqual({ generation: 2, entries: ["c"] });
  });

  it("that cannot be read grants nothing, and no approval is saved over it", async () => {
    const root = realpathSync(tempRoot());
    const reports: string[] = [];
    const book = new ApprovalBook((m) => reports.push(m), () => userPlaces(root));
    await book.remember({ sessionId: "a", root }, [MAKE], true);
    const fresh = { sessionId: "b", root };
    expect(await book.covers(fresh, MAKE, true)).toBe(true);
    const record = ledgerPath(userPlaces(root).stateDir, root);
    writeFileSync(record, "{ not json");
    expect(await book.covers(fresh, MAKE, true)).toBe(false);
    expect(reports.join("\n")).toContain(`The approvals record of ${root} cannot be read`);
    const before = readFileSync(approvalsPath(root), "utf8");
    await book.remember({ sessionId: "c", root }, [{ kind: "program", program: "npm" }], true);
    expect(readFileSync(approvalsPath(root), "utf8")).toBe(before);
    expect(readFileSync(record, "utf8")).toBe("{ not json");
  });

  it("an entry revoked, restored with an old file and approved again is written once", async () => {
    const root = realpathSync(tempRoot());
    const book = new ApprovalBook(() => undefined, () => userPlaces(root));
    await book.remember({ sessionId: "a", root }, [MAKE], true);
    const old = path.join(root, "old.toml");
    copyFileSync(approvalsPath(root), old);
    writeFileSync(approvalsPath(root), "");
    const fresh = { sessionId: "b", root };
    expect(await book.covers(fresh, MAKE, true)).toBe(false);
    copyFileSync(old, approvalsPath(root));
    expect(await book.covers(fresh, MAKE, true)).toBe(false);
    await book.remember({ sessionId: "c", root }, [MAKE], true);
    expect(await book.covers({ sessionId: "d", root }, MAKE, true)).toBe(true);
    expect(readFileSync(approvalsPath(root), "utf8").match(/^\[\[program\]\]$/gm)).toHaveLength(1);
  });

  it.skipIf(MOUNT_PROBLEM !== undefined)("on a full disk fails with ENOSPC and leaves no temp file behind", async () => {
    const root = realpathSync(tempRoot());
    const stateDir = userPlaces(root).stateDir;
    const folder = path.dirname(ledgerPath(stateDir, root));
    const unmount = mountTmpfs(folder, "64k");
    try {
      fill(folder);
      await expect(writeLedger(stateDir, root, { generation: 1, entries: ["a".repeat(64)] })).rejects.toMatchObject({ code: "ENOSPC" });
      expect(readdirSync(folder)).toEqual(["filler"]);
    } finally {
      unmount();
    }
  });
});
