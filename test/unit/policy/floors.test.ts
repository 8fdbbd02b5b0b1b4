/**
 * The floors: each destructive command is refused (they hold in full access; the gate tests show
 * that), look-alikes that are routine work are not, and config lifts each floor by name.
 */
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FloorName } from "../../../server/src/config/schema.js";
import { checkFloors, isProtectedBranch, type FloorContext } from "../../../server/src/policy/floors.js";
import { callOf, capability, gateFixture, never, tempRoot } from "./setup.js";

const home = path.join(path.sep, "home", "me");
const root = path.join(home, "code", "app");

function ctx(over: Partial<FloorContext> = {}): FloorContext {
  return { cwd: root, root, home, lifted: [], protectedBranches: ["main", "master", "release/*"], currentBranch: () => "feature/x", ...over };
}

const DENIED: [string, FloorName][] = [
  ["rm -rf /", "rm_root"],
  ["rm -rf /*", "rm_root"],
  ["rm -fr ~", "rm_root"],
  [`rm -rf ~${os.userInfo().username}`, "rm_root"],
  ["rm -r -f $HOME", "rm_root"],
  ['rm --recursive --force "${HOME}/"', "rm_root"],
  ["sudo rm -rf --no-preserve-root /", "rm_root"],
  ["rm -rf .", "rm_root"],
  ["rm -rf *", "rm_root"],
  [`rm -rf ${root}`, "rm_root"],
  ["rm -rf ..", "rm_root"],
  ["cd / && rm -rf *", "rm_root"],
  ["cd && rm -rf .", "rm_root"],
  ["bash -c 'rm -rf ~/'", "rm_root"],
  ["echo ok; /bin/rm -Rf /", "rm_root"],
  ["if true; then rm -rf ~; fi", "rm_root"],
  ['rm -rf "$PWD"', "rm_root"],
  ["rm -rf ${PWD}/*", "rm_root"],
  ["rm -rf $(pwd)", "rm_root"],
  ['cd .. && rm -rf "`pwd`"', "rm_root"],
  ["mkfs.ext4 /dev/sdb1", "disk_format"],
  ["sudo mkfs -t vfat /dev/sdc", "disk_format"],
  ["wipefs -a /dev/nvme0n1", "disk_format"],
  ["dd if=/dev/zero of=/dev/sda bs=1M", "disk_format"],
  ["cat image.iso > /dev/sdb", "disk_format"],
  ["shred -n 3 /dev/mmcblk0", "disk_format"],
  ["diskutil eraseDisk JHFS+ Empty disk2", "disk_format"],
  [":(){ :|:& };:", "fork_bomb"],
  ["bomb() { bomb | bomb & }; bomb", "fork_bomb"],
  ["git push --force origin main", "force_push_protected"],
  ["git push -f origin master", "force_push_protected"],
  ["git push origin +main", "force_push_protected"],
  ["git push --force-with-lease origin HEAD:main", "force_push_protected"],
  ["git push -uf origin release/2.0", "force_push_protected"],
  ["git -C sub push --force origin refs/heads/main", "force_push_protected"],
  ["git push --force --all origin", "force_push_protected"],
];

const ALLOWED = [
  "rm -rf build",
  "rm -rf ./node_modules dist",
  "rm -rf ~/.cache/some-tool",
  "rm /tmp/x",
  "rm -f *.log",
  "echo 'rm -rf /'",
  "grep -r 'rm -rf /' .",
  "dd if=/dev/zero of=./disk.img bs=1M count=10",
  "echo hi > /dev/null",
  "mkswap ./swapfile",
  "git push origin main",
  "git push --force origin feature/x",
  "git push -f",
  "git push origin :main",
  "npm test && npm run build",
  'rm -rf "$PWD/build"',
  "rm -rf $(pwd)/dist",
];

describe("floors", () => {
  it.each(DENIED)("refuses %s (%s)", async (command, floor) => {
    const hit = await checkFloors(command, ctx());
    expect(hit?.floor).toBe(floor);
    expect(hit?.reason).toContain("lift_floors");
  });

  it.each(ALLOWED)("lets %s through", async (command) => {
    expect(await checkFloors(command, ctx())).toBeUndefined();
  });

  it.each(DENIED)("config lifting the floor lets %s through", async (command, floor) => {
    expect(await checkFloors(command, ctx({ lifted: [floor] }))).toBeUndefined();
  });

  it("a forced push without a branch looks at the checked-out branch", async () => {
    expect((await checkFloors("git push -f", ctx({ currentBranch: () => "main" })))?.floor).toBe("force_push_protected");
    expect((await checkFloors("git push --force", ctx({ currentBranch: () => undefined })))?.reason).toContain("could not be read");
  });

  it("follows $(git rev-parse --show-toplevel) to the repository's top folder", async () => {
    const repo = tempRoot();
    mkdirSync(path.join(repo, ".git"));
    const inRepo = ctx({ cwd: path.join(repo, "src"), root: path.join(repo, "src") });
    expect((await checkFloors('rm -rf "$(git rev-parse --show-toplevel)"', inRepo))?.floor).toBe("rm_root");
    expect((await checkFloors("rm -rf `git rev-parse --show-toplevel`/*", inRepo))?.floor).toBe("rm_root");
    expect(await checkFloors('rm -rf "$(git rev-parse --show-toplevel)/dist"', inRepo)).toBeUndefined();
    rmSync(repo, { recursive: true, force: true });
  });

  it("matches protected branch patterns", () => {
    expect(isProtectedBranch("release/1.2", ["release/*"])).toBe(true);
    expect(isProtectedBranch("main-2", ["main"])).toBe(false);
    expect(isProtectedBranch("a.b", ["a*b"])).toBe(true);
  });

  it.each(DENIED.map(([c]) => c))("the gate refuses %s in full access, unasked", async (command) => {
    const policy = { lift_floors: [], protected_branches: ["main", "master", "release/*"], classifier_model: "", classifier_timeout_s: 30, sensitive_paths: [] };
    const fx = gateFixture({ root, home, branch: "feature/x", config: { policy } });
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const decision = await fx.gate.authorize(fx.session("full_access"), callOf(exec), exec, { kind: "command", command, cwd: root }, never);
    expect(decision.allowed).toBe(false);
    expect(fx.editor.permissions).toHaveLength(0);
  });

  it.each(DENIED)("with %s's floor (%s) lifted in config, the gate lets full access run it", async (command, floor) => {
    const policy = { lift_floors: [floor], protected_branches: ["main", "master", "release/*"], classifier_model: "", classifier_timeout_s: 30, sensitive_paths: [] };
    const fx = gateFixture({ root, home, branch: "feature/x", config: { policy } });
    const exec = capability("exec", { name: "execute_command", metadata: { authorizesCommands: true } });
    const decision = await fx.gate.authorize(fx.session("full_access"), callOf(exec), exec, { kind: "command", command, cwd: root }, never);
    expect(decision).toEqual({ allowed: true });
  });

  it("the gate protects the real home folder by default", async () => {
    const fx = gateFixture({ home: null });
    const exec = capability("exec", { name: "execute_command" });
    const decision = await fx.gate.check(fx.session("full_access"), callOf(exec, { command: `rm -rf ${os.homedir()}` }), exec, never);
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringContaining("home folder") });
  });
});
