/**
 * The floors: a small deny list of destructive commands that holds in every safety mode, full
 * access included, unless config `[policy] lift_floors` names the floor. They are a seatbelt for
 * the handful of commands that destroy a machine or a shared branch in one line, not a sandbox:
 * anything subtler is the job of the mode, the prompts and the classifier.
 */
import path from "node:path";
import type { FloorName } from "../config/schema.js";
import { isInside } from "../workspace/paths.js";
import { repositoryTop } from "./git-head.js";
import { basename, effectiveWords, expandHome, innerCommandLine, parseCommandLine, type SimpleCommand } from "./command-line.js";
import { commandFolders, type Folders } from "./shell/folders.js";

/** What the floors need to know about where a command runs. */
export interface FloorContext {
  /** Absolute working directory of the command. */
  cwd: string;
  /** The project root. */
  root: string;
  /** The user's home directory. */
  home: string;
  /** Floors config lifted. */
  lifted: readonly FloorName[];
  /** Branch patterns a forced push may not reach (`release/*` style globs). */
  protectedBranches: readonly string[];
  /** The branch checked out in the repository at `dir`, for a push that names none. */
  currentBranch(dir: string): string | undefined;
  /** The top of the repository containing `dir`; read from the disk by default. */
  repositoryTop?(dir: string): string | undefined;
}

/** A floor a command hits, and why, in words for the model and the user. */
export interface FloorHit {
  floor: FloorName;
  reason: string;
}

/** How deep `bash -c "bash -c ..."` is followed. */
const MAX_DEPTH = 4;

/**
 * The first floor `command` hits, or undefined when it hits none (or all it hits are lifted).
 * Rejects only when the shell parser cannot be loaded: then no command can be checked.
 */
export function checkFloors(command: string, ctx: FloorContext): Promise<FloorHit | undefined> {
  return checkLine(command, ctx, [ctx.cwd], 0);
}

/**
 * Ways a model writes "this folder" or "this repository" in place of a path (`rm -rf "$(pwd)"`),
 * turned into parameters before parsing: a substitution would split the word, and rm's targets
 * are expanded per command, where the folder is known.
 */
const PWD_SUBSTITUTION = /\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd(?:\s+-[LP])?\s*`/g;
const TOPLEVEL_SUBSTITUTION = /\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`/g;
const TOPLEVEL_PARAMETER = "${__agent_lsp_git_toplevel}";

async function checkLine(rawLine: string, ctx: FloorContext, start: Folders, depth: number): Promise<FloorHit | undefined> {
  const text = rawLine.replace(PWD_SUBSTITUTION, "${PWD}").replace(TOPLEVEL_SUBSTITUTION, TOPLEVEL_PARAMETER);
  if (isForkBomb(text)) {
    const hit = lift(ctx, "fork_bomb", "it is a fork bomb: it spawns processes until the machine stops responding");
    if (hit) return hit;
  }
  const line = await parseCommandLine(text);
  const folders = commandFolders(line, start, ctx.home);
  for (const cmd of line.commands) {
    const where = folders.get(cmd);
    const inner = innerCommandLine(cmd);
    const innerHit = inner !== undefined && depth < MAX_DEPTH ? await checkLine(inner, ctx, where, depth + 1) : undefined;
    if (innerHit) return innerHit;
    // A folder only the shell knows: relative targets cannot be judged, absolute ones still are.
    for (const cwd of where ?? [undefined]) {
      const hit = checkCommand(cmd, ctx, cwd);
      if (hit) return hit;
    }
  }
  // What the grammar left as text but the shell runs (`${X:=`rm -rf ~`}`).
  for (const hidden of depth < MAX_DEPTH ? line.hidden : []) {
    const hit = await checkLine(hidden, ctx, start, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

function checkCommand(cmd: SimpleCommand, ctx: FloorContext, cwd: string | undefined): FloorHit | undefined {
  const rm = removesProtectedDir(cmd, ctx, cwd);
  if (rm) return lift(ctx, "rm_root", rm);
  const disk = writesDisk(cmd);
  if (disk) return lift(ctx, "disk_format", disk);
  const push = forcePushesProtected(cmd, ctx, cwd);
  if (push) return lift(ctx, "force_push_protected", push);
  return undefined;
}

/** The hit, unless config lifted that floor. */
function lift(ctx: FloorContext, floor: FloorName, why: string): FloorHit | undefined {
  if (ctx.lifted.includes(floor)) return undefined;
  return {
    floor,
    reason: `Refused in every safety mode: ${why}. This safety floor ("${floor}") can only be lifted in the configuration ([policy] lift_floors); do not try to work around it.`,
  };
}

/** The classic shell fork bomb, `:(){ :|:& };:` and its renamings. */
function isForkBomb(line: string): boolean {
  const flat = line.replace(/\s+/g, "");
  return /([\w:.-]+)\(\)\{\1\|\1&?;?\};?\1/.test(flat);
}

/** `rm -r` of `/`, the home folder, the project root, or a folder containing one of them. */
function removesProtectedDir(cmd: SimpleCommand, ctx: FloorContext, cwd: string | undefined): string | undefined {
  const eff = effectiveWords(cmd.words);
  if (eff[0] === undefined || basename(eff[0]) !== "rm") return undefined;
  let recursive = false;
  let optionsEnded = false;
  const targets: string[] = [];
  for (const w of eff.slice(1)) {
    if (!optionsEnded && w === "--") optionsEnded = true;
    else if (!optionsEnded && w.startsWith("--")) recursive ||= w === "--recursive";
    else if (!optionsEnded && /^-[A-Za-z]+$/.test(w)) recursive ||= /[rR]/.test(w);
    else targets.push(w);
  }
  if (!recursive) return undefined;
  for (const t of targets) {
    const abs = resolveRmTarget(t, cwd, ctx);
    if (abs === undefined) continue;
    const what = protectedDirName(abs, ctx);
    if (what) return `"rm ${eff.slice(1).join(" ")}" would delete ${what}`;
  }
  return undefined;
}

/** The folder an rm target removes (or empties: `dir/*`), absolute. */
function resolveRmTarget(target: string, cwd: string | undefined, ctx: FloorContext): string | undefined {
  let t = expandHome(target, ctx.home);
  if (cwd !== undefined) t = t.replace(/^(\$PWD|\$\{PWD\})(?=\/|$)/, cwd);
  if (cwd !== undefined && t.startsWith(TOPLEVEL_PARAMETER)) {
    const top = (ctx.repositoryTop ?? repositoryTop)(cwd);
    if (top === undefined) return undefined;
    t = top + t.slice(TOPLEVEL_PARAMETER.length);
  }
  // "dir/*" and "*" empty the folder: as bad as removing it when the folder is protected.
  t = t.replace(/(^|\/)(\.?\*)$/, "$1") || ".";
  if (/[*?[]/.test(t)) return undefined;
  // In a folder only the shell knows, only an absolute target can be judged.
  if (cwd === undefined) return path.isAbsolute(t) ? path.resolve(t) : undefined;
  return path.resolve(cwd, t);
}

function protectedDirName(abs: string, ctx: FloorContext): string | undefined {
  if (abs === path.parse(abs).root) return `the filesystem root (${abs})`;
  if (isInside(abs, ctx.home)) return abs === ctx.home ? `the home folder (${abs})` : `${abs}, which contains the home folder`;
  if (isInside(abs, ctx.root)) return abs === ctx.root ? `the project root (${abs})` : `${abs}, which contains the project`;
  return undefined;
}

/** Block devices that hold file systems (partitions included). */
const DISK_DEVICE = /^\/dev\/(sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+n\d+(p\d+)?|mmcblk\d+(p\d+)?|r?disk\d+(s\d+)?|md\d+|dm-\d+|mapper\/.+)$/;

/** Programs that make or wipe a file system whatever their target. */
const FORMATTERS = /^(mkfs(\..+)?|mke2fs|mkdosfs|mkntfs|mkexfatfs|newfs(_.+)?|wipefs|blkdiscard)$/;

const DISKUTIL_ERASE = new Set(["eraseDisk", "eraseVolume", "partitionDisk", "zeroDisk", "randomDisk", "secureErase", "reformat"]);

/** Formatting a disk, or writing over a disk device (`dd of=/dev/sda`, `> /dev/sda`, `shred /dev/sda`). */
function writesDisk(cmd: SimpleCommand): string | undefined {
  const eff = effectiveWords(cmd.words);
  const program = eff[0] === undefined ? "" : basename(eff[0]);
  const devices = eff.slice(1).filter((w) => DISK_DEVICE.test(w));
  if (FORMATTERS.test(program)) return `"${program}" formats or wipes a disk`;
  if (program === "diskutil" && eff.slice(1).some((w) => DISKUTIL_ERASE.has(w))) return `"diskutil ${eff[1]}" erases a disk`;
  if (program === "dd") {
    const of = eff.find((w) => w.startsWith("of="))?.slice(3);
    if (of && DISK_DEVICE.test(of)) return `"dd of=${of}" writes over a disk device`;
  }
  if (["shred", "mkswap", "tee", "cp"].includes(program) && devices.length) return `"${program}" would overwrite the disk device ${devices[0]}`;
  const redirect = cmd.redirects.find((r) => r.op.includes(">") && DISK_DEVICE.test(r.target));
  if (redirect) return `redirecting output to ${redirect.target} writes over a disk device`;
  return undefined;
}

/** Options of `git push` that take the next word as their value. */
const PUSH_VALUE_OPTIONS = new Set(["-o", "--push-option", "--receive-pack", "--exec", "--repo"]);

/** `git push --force` (or a `+refspec`) to a protected branch. */
function forcePushesProtected(cmd: SimpleCommand, ctx: FloorContext, cwd: string | undefined): string | undefined {
  const eff = effectiveWords(cmd.words);
  if (eff[0] === undefined || basename(eff[0]) !== "git") return undefined;
  let i = 1;
  let dir = cwd;
  for (; i < eff.length && eff[i]!.startsWith("-"); i++) {
    if (eff[i] === "-C") {
      const to = eff[++i] ?? ".";
      dir = dir === undefined && !path.isAbsolute(to) ? undefined : path.resolve(dir ?? "/", to);
    } else if (eff[i] === "-c") i++;
  }
  if (eff[i] !== "push") return undefined;
  const push = readPushArgs(eff.slice(i + 1));
  // In a folder only the shell knows, the checked-out branch cannot be read.
  const forcedTo = forcedBranches(push, () => (dir === undefined ? undefined : ctx.currentBranch(dir)));
  if (forcedTo === "all") return "a forced push of every branch reaches the protected branches";
  if (forcedTo === "unknown") return "a forced push without a branch name, and the checked-out branch could not be read";
  const hit = forcedTo.find((b) => isProtectedBranch(b, ctx.protectedBranches));
  return hit === undefined ? undefined : `a forced push to the protected branch "${hit}" rewrites shared history`;
}

interface PushArgs {
  force: boolean;
  all: boolean;
  refspecs: string[];
}

function readPushArgs(args: string[]): PushArgs {
  const out: PushArgs = { force: false, all: false, refspecs: [] };
  const positional: string[] = [];
  for (let j = 0; j < args.length; j++) {
    const a = args[j]!;
    if (a === "--force" || a.startsWith("--force-with-lease")) out.force = true;
    else if (a === "--all" || a === "--mirror" || a === "--branches") out.all = true;
    else if (PUSH_VALUE_OPTIONS.has(a)) j++;
    else if (/^-[A-Za-z]+$/.test(a)) out.force ||= a.includes("f");
    else if (!a.startsWith("-")) positional.push(a);
  }
  out.refspecs = positional.slice(1); // the first is the remote
  return out;
}

/** The branches a push forces, "all", or "unknown" when it forces the unreadable current branch. */
function forcedBranches(push: PushArgs, current: () => string | undefined): string[] | "all" | "unknown" {
  if (push.force && push.all) return "all";
  if (push.refspecs.length === 0) {
    if (!push.force) return [];
    const branch = current();
    return branch === undefined ? "unknown" : [branch];
  }
  const out: string[] = [];
  for (const spec of push.refspecs) {
    const plus = spec.startsWith("+");
    if (!plus && !push.force) continue;
    const body = plus ? spec.slice(1) : spec;
    const colon = body.lastIndexOf(":");
    let dst = colon === -1 ? body : body.slice(colon + 1);
    if (colon !== -1 && colon === 0) continue; // ":branch" deletes, it does not force
    if (dst === "HEAD" || dst === "@") {
      const c = current();
      if (c === undefined) return "unknown";
      dst = c;
    }
    out.push(dst.replace(/^refs\/heads\//, ""));
  }
  return out;
}

/** True when `branch` matches one of the patterns (`*` matches any run of characters). */
export function isProtectedBranch(branch: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => {
    const re = new RegExp(`^${p.split("*").map(escapeRegExp).join(".*")}$`);
    return re.test(branch);
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
