/**
 * The bubblewrap command line of one launch (pure: the layout in, the arguments out). bwrap
 * applies its options in order, so the order is the profile:
 * 1. the whole machine read-only, a fresh /dev and /proc (its own PID namespace), a private /tmp
 *    and a private runtime folder (where the session's daemons listen);
 * 2. the writable folders bound over it (a hidden folder that holds one emptied first, so only
 *    that folder comes back inside it), then the read-only places inside them again;
 * 3. the hidden places covered: a folder by an empty tmpfs of mode 000 (a mount of its own is
 *    far cheaper for bwrap than a bind, which re-reads the mount table each time: a home full of
 *    credential folders added tens of milliseconds to every command on a busy machine), a file
 *    by an empty file nobody may read (mode 000);
 * 4. the namespaces: PID (so /proc and `ps` show only the command's own processes), network (no
 *    interface but loopback), IPC; `--die-with-parent`, so nothing inside outlives the launch;
 * 5. as root, every capability dropped: root could otherwise unmount what hides a secret or
 *    remount the disk writable.
 */
import type { Layout } from "./layout.js";

/** What the bwrap line is built from. */
export interface BwrapPlan {
  layout: Layout;
  cwd: string;
  /** An empty file, mode 000, that covers hidden files. */
  emptyFile: string;
  /** Whether the server runs as root (capabilities are then dropped). */
  isRoot: boolean;
  /** The filtering proxy's socket, bound in when the network goes through it. */
  proxySocket?: string;
  /**
   * Start the command in a session of its own: for launches that share the server's terminal
   * (git, MCP servers), so nothing inside can push keystrokes into it. Commands already run in
   * a session of their own and keep their process group (stops signal it).
   */
  newSession: boolean;
  /** The program and its arguments, run inside. */
  command: readonly string[];
}

/** The arguments of `bwrap` for `plan`. */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const { layout } = plan;
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  for (const dir of layout.emptied) args.push("--perms", "0700", "--tmpfs", dir);
  for (const dir of layout.hiddenAround) args.push("--tmpfs", dir);
  for (const dir of layout.writable) args.push("--bind", dir, dir);
  for (const p of layout.readOnly) args.push("--ro-bind", p, p);
  // What a command writes there (once it chmods the cover) is its own, gone when it ends.
  for (const dir of layout.hiddenDirs) args.push("--perms", "000", "--tmpfs", dir);
  for (const file of layout.hiddenFiles) args.push("--ro-bind", plan.emptyFile, file);
  if (plan.proxySocket) args.push("--bind", plan.proxySocket, plan.proxySocket);
  args.push("--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent");
  if (plan.isRoot) args.push("--cap-drop", "ALL");
  if (plan.newSession) args.push("--new-session");
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", plan.cwd, "--", ...plan.command);
  return args;
}
