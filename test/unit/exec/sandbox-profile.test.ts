/**
 * The sandbox's pure parts: the order of bwrap's options (which is its profile), the macOS
 * profile's text, the sentences that explain a refusal, and the gate's scopes on top of where a
 * command runs.
 */
import { describe, expect, it } from "vitest";
import { bwrapArgs } from "../../../server/src/exec/sandbox/bwrap-args.js";
import { explainDenials } from "../../../server/src/exec/sandbox/denials.js";
import type { Layout } from "../../../server/src/exec/sandbox/layout.js";
import { seatbeltProfile } from "../../../server/src/exec/sandbox/macos-profile.js";
import { runtimeFolders } from "../../../server/src/exec/sandbox/sockets.js";
import { sandboxWords, scopesInSandbox } from "../../../server/src/policy/command-sandbox.js";
import type { Scope } from "../../../server/src/policy/rules.js";

const layout: Layout = {
  writable: ["/p", "/repo/.git"],
  readOnly: ["/p/.agent-lsp", "/repo/.git/hooks", "/repo/.git/config"],
  hiddenDirs: ["/home/u/.ssh"],
  hiddenFiles: ["/home/u/.netrc"],
  hiddenAround: [],
  emptied: [],
};

describe("bwrapArgs", () => {
  const base = { layout, cwd: "/p/sub", emptyFile: "/t/empty-file", newSession: false, command: ["/bin/sh", "-c", "exec 2>&1; make"] };

  it("mounts in the order that makes the profile: read-only disk, writable folders, read-only places in them, then the covers", () => {
    const args = bwrapArgs({ ...base, isRoot: false });
    const at = (a: string, b: string) => args.findIndex((x, i) => x === a && args[i + 1] === b);
    expect(args.slice(0, 9)).toEqual(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]);
    expect(at("--bind", "/p")).toBeLessThan(at("--ro-bind", "/p/.agent-lsp"));
    expect(at("--ro-bind", "/repo/.git/config")).toBeLessThan(at("--tmpfs", "/home/u/.ssh"));
    // A hidden folder gets an empty tmpfs nobody may read; a hidden file an empty file.
    expect(args.join(" ")).toContain("--perms 000 --tmpfs /home/u/.ssh");
    expect(args.join(" ")).toContain("--ro-bind /t/empty-file /home/u/.netrc");
    expect(args).toEqual(expect.arrayContaining(["--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent"]));
    expect(args).not.toContain("--cap-drop");
    expect(args.slice(-9)).toEqual(["--setenv", "TMPDIR", "/tmp", "--chdir", "/p/sub", "--", "/bin/sh", "-c", "exec 2>&1; make"]);
  });

  it("empties a hidden folder that holds the project before binding the project back into it", () => {
    const around = { ...layout, writable: ["/state/agent-lsp/no-project"], hiddenAround: ["/state/agent-lsp"] };
    const args = bwrapArgs({ ...base, layout: around, isRoot: false }).join(" ");
    expect(args).toContain("--tmpfs /tmp --tmpfs /state/agent-lsp --bind /state/agent-lsp/no-project /state/agent-lsp/no-project");
  });

  it("replaces the runtime folder by an empty private one before the project is bound (it may hold the project)", () => {
    const args = bwrapArgs({ ...base, layout: { ...layout, emptied: ["/run/user/1000"] }, isRoot: false }).join(" ");
    expect(args).toContain("--tmpfs /tmp --perms 0700 --tmpfs /run/user/1000 --bind /p /p");
  });

  it("drops every capability as root, and starts a session of its own when asked", () => {
    const args = bwrapArgs({ ...base, isRoot: true, newSession: true, proxySocket: "/t/p.sock" });
    expect(args.join(" ")).toContain("--cap-drop ALL");
    expect(args).toContain("--new-session");
    expect(args.join(" ")).toContain("--bind /t/p.sock /t/p.sock");
  });
});

describe("runtimeFolders", () => {
  it("is $XDG_RUNTIME_DIR and /run/user/<uid>, never a folder that holds the home", () => {
    expect(runtimeFolders({ XDG_RUNTIME_DIR: "/run/user/1000/" }, 1000, "/home/u")).toEqual(["/run/user/1000"]);
    expect(runtimeFolders({ XDG_RUNTIME_DIR: "/home/u" }, 1000, "/home/u")).toEqual(["/run/user/1000"]);
    expect(runtimeFolders({ XDG_RUNTIME_DIR: "/home" }, null, "/home/u")).toEqual([]);
    expect(runtimeFolders({ XDG_RUNTIME_DIR: "/" }, null, "/home/u")).toEqual([]);
    expect(runtimeFolders({ XDG_RUNTIME_DIR: "relative" }, null, "/home/u")).toEqual([]);
  });
});

describe("seatbeltProfile", () => {
  it("denies writes but to the writable folders, then the read-only places, then every read of the hidden ones, and the network", () => {
    const profile = seatbeltProfile({ layout, tempDirs: ["/private/var/folders/x/T"], proxyPort: 4242 });
    const lines = profile.trim().split("\n");
    expect(lines[0]).toBe("(version 1)");
    expect(lines.indexOf("(deny file-write*)")).toBeLessThan(lines.findIndex((l) => l.startsWith("(allow file-write*")));
    expect(profile).toContain('(deny file-write* (subpath "/p/.agent-lsp") (subpath "/repo/.git/hooks") (subpath "/repo/.git/config"))');
    expect(profile).toContain('(deny file-read* file-write* (subpath "/home/u/.ssh") (literal "/home/u/.netrc"))');
    expect(lines.at(-1)).toBe('(allow network-outbound (remote ip "localhost:4242"))');
    expect(seatbeltProfile({ layout: { ...layout, writable: ['/we"ird'] }, tempDirs: [] })).toContain('(subpath "/we\\"ird")');
  });
});

describe("explainDenials", () => {
  const context = { layout, cwd: "/p", proxied: false };

  it("names a write refused outside the project, in a read-only place, and a hidden read", () => {
    const said = explainDenials(
      ["touch: cannot touch '/etc/x': Read-only file system", "sh: 1: cannot create .agent-lsp/a: Read-only file system", "cat: /home/u/.ssh/id_rsa: Permission denied", "OSError: [Errno 30] Read-only file system: '/usr/lib/y'"].join("\n"),
      context,
    );
    expect(said).toEqual([
      expect.stringMatching(/^The sandbox refused \/etc\/x: the sandbox lets commands write only inside the project/),
      expect.stringMatching(/^The sandbox refused \/p\/\.agent-lsp\/a: it stays read-only in the sandbox/),
      expect.stringMatching(/^The sandbox refused \/home\/u\/\.ssh\/id_rsa: it is hidden from commands/),
      expect.stringMatching(/^The sandbox refused \/usr\/lib\/y: /),
    ]);
  });

  it("reads a path in the curly quotes coreutils writes in a UTF-8 locale", () => {
    const said = explainDenials("touch: cannot touch \u2018/etc/my file\u2019: Read-only file system\nmkdir: cannot create directory \u201c/opt/z\u201d: Read-only file system", context);
    expect(said).toEqual([
      expect.stringMatching(/^The sandbox refused \/etc\/my file: the sandbox lets commands write only inside the project/),
      expect.stringMatching(/^The sandbox refused \/opt\/z: /),
    ]);
  });

  it("says nothing of an ordinary permission error in the project or of a write it allows", () => {
    expect(explainDenials("cat: ./secret.txt: Permission denied\ntouch: cannot touch '/tmp/x': Read-only file system", context)).toEqual([]);
  });

  it("says the network is off when a name does not resolve, unless the proxy was there", () => {
    expect(explainDenials("curl: (6) Could not resolve host: example.com", context)).toEqual([expect.stringMatching(/no network \(\[exec\] network = "off"\)/)]);
    expect(explainDenials("curl: (6) Could not resolve host: example.com", { ...context, proxied: true })).toEqual([]);
  });
});

describe("scopesInSandbox", () => {
  const program: Scope = { rule: { kind: "program", program: "cat" }, autoAllowed: false };
  const outside: Scope = { rule: { kind: "external", dir: "/elsewhere", access: "write" }, autoAllowed: false };
  const settings: Scope = { unremembered: "settings", autoAllowed: false, sensitive: { headline: "h", kind: "credential", path: "/x" } };

  it("inside: no scope for what the sandbox keeps read-only, and no safety check except for sensitive places", () => {
    expect(scopesInSandbox([program, outside, settings], { state: "inside" })).toEqual([{ ...program, autoAllowed: true }, settings]);
  });

  it("outside the sandbox: an extra part that is never remembered, saying why", () => {
    expect(scopesInSandbox([program], { state: "asked", reason: "needs the network" }).at(-1)).toEqual({ unremembered: "it runs outside the sandbox (needs the network), which is asked every time", autoAllowed: false });
    expect(scopesInSandbox([program], { state: "unavailable", why: "no bwrap" }).at(-1)?.unremembered).toMatch(/^it cannot be sandboxed here \(no bwrap\)/);
  });

  it("off, or a command that never meets the sandbox: as before", () => {
    expect(scopesInSandbox([program, outside], { state: "off" })).toEqual([program, outside]);
    expect(scopesInSandbox([program, outside], undefined)).toEqual([program, outside]);
    expect(sandboxWords({ state: "off" })).toBe("");
    expect(sandboxWords({ state: "inside" })).toBe(" — sandboxed");
  });
});
