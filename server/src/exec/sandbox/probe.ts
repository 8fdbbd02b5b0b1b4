/**
 * Whether the sandbox works on this machine, found out once and kept: on Linux, `bwrap` on PATH
 * and a trial run with the namespaces every launch asks for (user namespaces may be switched
 * off, a container may forbid mounting /proc); on macOS, `sandbox-exec` and a trial profile.
 * The answer is kept per PATH, so a command environment without bwrap is judged as itself.
 */
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** Whether the sandbox can run, and with what; or why not, in words for the user. */
export type Availability =
  | { works: true; kind: "bwrap" | "sandbox-exec"; program: string }
  | { works: false; why: string };

/** The flags of the trial: the namespaces and mounts every bwrap launch uses. */
export function bwrapTrialArgs(isRoot: boolean): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    // The covers' form (bubblewrap 0.5 and newer): an older bwrap is found out here, not by every command.
    "--perms", "0700", "--tmpfs", "/tmp/cover",
    "--unshare-pid", "--unshare-net", "--unshare-ipc",
    "--die-with-parent",
    ...(isRoot ? ["--cap-drop", "ALL"] : []),
    "--", "/bin/sh", "-c", "exit 0",
  ];
}

/** The path of `program` on `searchPath` (executable files only), or undefined. */
export function findOnPath(program: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const cache = new Map<string, Promise<Availability>>();

/** Whether the sandbox works here for commands whose PATH is `searchPath` (cached). */
export function sandboxAvailability(searchPath: string | undefined = process.env.PATH, platform: NodeJS.Platform = process.platform): Promise<Availability> {
  const key = `${platform}\0${searchPath ?? ""}`;
  let found = cache.get(key);
  if (!found) cache.set(key, (found = probe(searchPath, platform)));
  return found;
}

/** Forgets every answer (tests, and doctor after installing bubblewrap). */
export function forgetAvailability(): void {
  cache.clear();
}

async function probe(searchPath: string | undefined, platform: NodeJS.Platform): Promise<Availability> {
  if (platform === "linux") return probeBwrap(searchPath);
  if (platform === "darwin") return probeSandboxExec();
  return { works: false, why: `agent-lsp has no sandbox for ${platform}` };
}

async function probeBwrap(searchPath: string | undefined): Promise<Availability> {
  const bwrap = findOnPath("bwrap", searchPath);
  if (!bwrap) return { works: false, why: "bwrap is not installed (install the bubblewrap package)" };
  const isRoot = process.getuid?.() === 0;
  const failure = await trial(bwrap, bwrapTrialArgs(isRoot));
  if (failure === undefined) return { works: true, kind: "bwrap", program: bwrap };
  if (/unknown option/i.test(failure)) return { works: false, why: `bwrap is too old for the sandbox (bubblewrap 0.5 or newer is needed): ${failure}` };
  return { works: false, why: `bwrap cannot make its namespaces here (are unprivileged user namespaces switched off?): ${failure}` };
}

async function probeSandboxExec(): Promise<Availability> {
  const program = "/usr/bin/sandbox-exec";
  const failure = await trial(program, ["-p", "(version 1)(allow default)", "/usr/bin/true"]);
  if (failure === undefined) return { works: true, kind: "sandbox-exec", program };
  return { works: false, why: `sandbox-exec does not work here: ${failure}` };
}

/** Runs the trial; undefined when it exited 0, else the first line of what went wrong. */
function trial(program: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } }, (err, _stdout, stderr) => {
      if (!err) return resolve(undefined);
      const said = String(stderr).trim().split("\n")[0];
      resolve(said || err.message.split("\n")[0]);
    });
  });
}
