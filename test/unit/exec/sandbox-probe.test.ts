/**
 * Finding out whether the sandbox works here: a bwrap too old for the covers' form (`--perms` on
 * a tmpfs, bubblewrap 0.5) is told apart from one whose namespaces are switched off, once, rather
 * than failing every command.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { forgetAvailability, sandboxAvailability } from "../../../server/src/exec/sandbox/probe.js";

/** A folder holding a `bwrap` that answers like `script`. */
function fakeBwrap(script: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-lsp-fake-bwrap-"));
  writeFileSync(path.join(dir, "bwrap"), `#!/bin/sh\n${script}\n`);
  chmodSync(path.join(dir, "bwrap"), 0o755);
  return dir;
}

describe.skipIf(process.platform !== "linux")("sandboxAvailability on Linux", () => {
  const made: string[] = [];
  afterEach(() => {
    forgetAvailability();
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("says bubblewrap is too old when it does not know the covers' options", async () => {
    const dir = fakeBwrap(`for a in "$@"; do [ "$a" = --perms ] && { echo "bwrap: Unknown option --perms" >&2; exit 1; }; done; exit 0`);
    made.push(dir);
    const found = await sandboxAvailability(dir, "linux");
    expect(found).toEqual({ works: false, why: "bwrap is too old for the sandbox (bubblewrap 0.5 or newer is needed): bwrap: Unknown option --perms" });
  });

  it("says the namespaces cannot be made when bwrap knows its options but fails", async () => {
    const dir = fakeBwrap(`echo "bwrap: setting up uid map: Permission denied" >&2; exit 1`);
    made.push(dir);
    const found = await sandboxAvailability(dir, "linux");
    expect(found).toEqual({ works: false, why: expect.stringMatching(/^bwrap cannot make its namespaces here .*setting up uid map: Permission denied$/) });
  });

  it("works when the trial, covers included, runs", async () => {
    const dir = fakeBwrap(`for a in "$@"; do [ "$a" = --perms ] && exit 0; done; exit 1`);
    made.push(dir);
    expect(await sandboxAvailability(dir, "linux")).toEqual({ works: true, kind: "bwrap", program: path.join(dir, "bwrap") });
  });
});
