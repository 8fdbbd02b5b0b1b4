/**
 * The sandbox's private folders of servers that were killed are removed by the next server, and
 * only those: a folder is proved gone by its socket refusing a connection, which holds across PID
 * namespaces (a server in another one, sharing /tmp, cannot see the other's pid).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ALIVE_SOCKET, removeFoldersOfGoneServers } from "../../../server/src/exec/sandbox/covers.js";
import { waitFor } from "../../helpers/wait.js";

const temps: string[] = [];
const listeners: net.Server[] = [];
const children: ChildProcess[] = [];
const held: net.Socket[] = [];
afterEach(() => {
  for (const c of held.splice(0)) c.destroy();
  for (const l of listeners.splice(0)) l.close();
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function tempFolder(): string {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "covers-test-"));
  temps.push(tmp);
  return tmp;
}

/** A pid that named a process a moment ago and names none now. */
function goneProcessPid(): number {
  const child = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

/** A process that lives until the test ends: its pid names a process here. */
function livingPid(): number {
  const living = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push(living);
  return living.pid!;
}

/** A server's folder as a server leaves it: mode 700, the unreadable cover file. */
function serverFolder(tmp: string, name: string): string {
  const folder = path.join(tmp, name);
  mkdirSync(folder, { mode: 0o700 });
  const cover = path.join(folder, "empty-file");
  writeFileSync(cover, "");
  chmodSync(cover, 0o000);
  return folder;
}

/** Its socket, listened on by this test: a server that lives (wherever its pid is seen). */
async function listening(folder: string): Promise<void> {
  const server = net.createServer((c) => c.destroy());
  listeners.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path.join(folder, ALIVE_SOCKET), resolve);
  });
}

/** Its socket as a killed server leaves it: the file is there, nobody listens. */
function leftByKilledServer(folder: string): void {
  const socket = path.join(folder, ALIVE_SOCKET);
  const script = `require("net").createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, "SIGKILL"))`;
  const killed = spawnSync(process.execPath, ["-e", script]);
  expect(killed.signal).toBe("SIGKILL");
  expect(lstatSync(socket).isSocket()).toBe(true);
}

/** A process's state letter from /proc (R, S, T: stopped, ...), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

/** Last changed two minutes ago: past the time a fresh server has to start listening. */
function aged(folder: string): string {
  const then = new Date(Date.now() - 120_000);
  utimesSync(folder, then, then);
  return folder;
}

describe("removeFoldersOfGoneServers", () => {
  it("keeps the folder of a live server whose pid is not seen here (another PID namespace sharing /tmp)", async () => {
    const tmp = tempFolder();
    const live = serverFolder(tmp, `agent-lsp-sandbox-${goneProcessPid()}-abc123`);
    await listening(live);
    aged(live);

    await removeFoldersOfGoneServers(tmp);

    expect(existsSync(path.join(live, "empty-file"))).toBe(true);
    expect(existsSync(path.join(live, ALIVE_SOCKET))).toBe(true);
  });

  it.skipIf(process.platform !== "linux")("keeps the folder of a live server that cannot answer now (stopped, its queue of connections full)", async () => {
    const tmp = tempFolder();
    const busy = aged(serverFolder(tmp, `agent-lsp-sandbox-${goneProcessPid()}-abc123`));
    const socket = path.join(busy, ALIVE_SOCKET);
    const script = `require("net").createServer().listen({ path: ${JSON.stringify(socket)}, backlog: 1 }, () => process.kill(process.pid, "SIGSTOP"))`;
    const stopped = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
    children.push(stopped);
    // It stops itself once it listens ("T" in /proc: stopped).
    await waitFor(() => processState(stopped.pid!) === "T", 20_000);
    // Fill its queue: the next connection is not refused but told to try again (EAGAIN).
    let answer: string;
    do {
      answer = await new Promise<string>((resolve) => {
        const c = net.connect(socket);
        held.push(c);
        c.once("connect", () => resolve("connected"));
        c.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
    } while (answer === "connected" && held.length < 50);
    expect(answer).toBe("EAGAIN");

    await removeFoldersOfGoneServers(tmp);

    expect(existsSync(path.join(busy, "empty-file"))).toBe(true);
  });

  it("removes a killed server's folder (its socket left, nobody listening), also when its pid names a process here again", async () => {
    const tmp = tempFolder();
    const killed = serverFolder(tmp, `agent-lsp-sandbox-${goneProcessPid()}-abc123`);
    leftByKilledServer(killed);
    // Its pid reused here (or seen here while the server ran elsewhere): the socket says gone.
    const reused = serverFolder(tmp, `agent-lsp-sandbox-${livingPid()}-def456`);
    leftByKilledServer(reused);

    await removeFoldersOfGoneServers(tmp);

    expect(existsSync(killed)).toBe(false);
    expect(existsSync(reused)).toBe(false);
  });

  it("keeps a fresh folder whose server has not listened yet", async () => {
    const tmp = tempFolder();
    const fresh = serverFolder(tmp, `agent-lsp-sandbox-${goneProcessPid()}-abc123`);

    await removeFoldersOfGoneServers(tmp);

    expect(existsSync(path.join(fresh, "empty-file"))).toBe(true);
  });

  it("judges an old folder without a socket (a server killed before it listened, an older agent-lsp) by its pid", async () => {
    const tmp = tempFolder();
    const gone = aged(serverFolder(tmp, `agent-lsp-sandbox-${goneProcessPid()}-abc123`));
    const running = aged(serverFolder(tmp, `agent-lsp-sandbox-${livingPid()}-def456`));
    const mine = aged(serverFolder(tmp, `agent-lsp-sandbox-${process.pid}-ghi789`));

    await removeFoldersOfGoneServers(tmp);

    expect(existsSync(gone)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(mine)).toBe(true);
  });

  it("keeps a folder whose socket is something else than a socket, and its own folder", async () => {
    const tmp = tempFolder();
    const gone = goneProcessPid();
    // Connecting to a plain file is refused like a socket nobody listens on: not proof enough.
    const notSocket = serverFolder(tmp, `agent-lsp-sandbox-${gone}-abc123`);
    writeFileSync(path.join(notSocket, ALIVE_SOCKET), "");
    aged(notSocket);
    const own = serverFolder(tmp, `agent-lsp-sandbox-${gone}-def456`);
    leftByKilledServer(own);

    await removeFoldersOfGoneServers(tmp, { own });

    expect(existsSync(notSocket)).toBe(true);
    expect(existsSync(own)).toBe(true);
  });

  it("leaves links, other names and other folders alone", async () => {
    const tmp = tempFolder();
    const gone = goneProcessPid();
    const oldStyle = aged(serverFolder(tmp, "agent-lsp-sandbox-Xy12Zq"));
    const unrelated = aged(serverFolder(tmp, "something-else"));
    // A link planted under a gone server's name: the link is no folder of ours, its target is kept.
    const target = serverFolder(tmp, "target");
    leftByKilledServer(target);
    aged(target);
    const link = path.join(tmp, `agent-lsp-sandbox-${gone}-link`);
    symlinkSync(target, link);

    await removeFoldersOfGoneServers(tmp);

    for (const kept of [oldStyle, unrelated, target]) expect(existsSync(path.join(kept, "empty-file"))).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(path.join(target, ALIVE_SOCKET))).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)("leaves another user's folder alone, even a killed server's", async () => {
    const tmp = tempFolder();
    const theirs = serverFolder(tmp, `agent-lsp-sandbox-${goneProcessPid()}-abc123`);
    leftByKilledServer(theirs);
    chownSync(theirs, 65534, 65534);
    aged(theirs);

    await removeFoldersOfGoneServers(tmp);

    expect(existsSync(path.join(theirs, ALIVE_SOCKET))).toBe(true);
  });

  it("resolves without throwing when the temporary folder cannot be read", async () => {
    await expect(removeFoldersOfGoneServers(path.join(os.tmpdir(), "no-such-folder-for-covers"))).resolves.toBeUndefined();
  });
});

/** `unshare` and the arguments that run a program in a PID namespace of its own, where that works here. */
const unshare: string[] | undefined = (() => {
  if (process.platform !== "linux") return undefined;
  for (const args of [["--pid", "--fork"], ["--user", "--map-root-user", "--pid", "--fork"]]) {
    if (spawnSync("unshare", [...args, "true"]).status === 0) return ["unshare", ...args];
  }
  return undefined;
})();

describe("sandboxCovers", () => {
  const child = fileURLToPath(new URL("./fixtures/covers-child.ts", import.meta.url));

  /** A stand-in server that made its folder in `tmp`; resolves with the folder. */
  async function startServer(tmp: string): Promise<{ proc: ChildProcess; folder: string }> {
    const proc = spawn(process.execPath, ["--import", "tsx", child, "serve"], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: tmp } });
    children.push(proc);
    const folder = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n").find((l) => l.startsWith("{"));
        if (line) resolve((JSON.parse(line) as { folder: string }).folder);
      });
      proc.once("exit", () => reject(new Error(`the server exited before making its folder: ${out}`)));
    });
    return { proc, folder };
  }

  it("listens in its folder while it lives, so a killed server's folder is proved gone, and removes gone servers' folders on its own", async () => {
    const tmp = tempFolder();
    const killedEarlier = serverFolder(tmp, `agent-lsp-sandbox-${livingPid()}-abc123`);
    leftByKilledServer(killedEarlier);

    const server = await startServer(tmp);
    expect(path.dirname(server.folder)).toBe(tmp);
    // Its sweep, after the folder is made: the killed server's folder goes although its pid runs.
    await waitFor(() => !existsSync(killedEarlier), 20_000);

    await removeFoldersOfGoneServers(tmp);
    expect(existsSync(path.join(server.folder, ALIVE_SOCKET))).toBe(true);

    const ended = new Promise((resolve) => server.proc.once("exit", resolve));
    server.proc.kill("SIGKILL");
    await ended;
    expect(existsSync(path.join(server.folder, ALIVE_SOCKET))).toBe(true);
    await removeFoldersOfGoneServers(tmp);
    expect(existsSync(server.folder)).toBe(false);
  });

  it.skipIf(!unshare)("a server in another PID namespace sharing /tmp keeps a live server's folder and removes a killed one's", async () => {
    const tmp = tempFolder();
    const server = await startServer(tmp);
    const killed = serverFolder(tmp, `agent-lsp-sandbox-${livingPid()}-abc123`);
    leftByKilledServer(killed);

    // The sweep of a server that sees none of this namespace's pids (as in a container).
    const sweep = spawn(unshare![0]!, [...unshare!.slice(1), process.execPath, "--import", "tsx", child, "sweep", tmp], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(sweep);
    let out = "";
    sweep.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => sweep.once("exit", resolve));
    expect(code).toBe(0);
    const { pidNamespace } = JSON.parse(out) as { pidNamespace: string };
    expect(pidNamespace).not.toBe(readlinkSync("/proc/self/ns/pid"));

    expect(existsSync(path.join(server.folder, "empty-file"))).toBe(true);
    expect(existsSync(path.join(server.folder, ALIVE_SOCKET))).toBe(true);
    expect(existsSync(killed)).toBe(false);
  }, 60_000);
});
