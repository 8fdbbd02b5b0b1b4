/**
 * The macOS sandbox: a `sandbox-exec` profile (Apple's SBPL) with the rules of the Linux one as
 * far as Seatbelt has them: writes only in the project (and its repository's git folders), the
 * temporary folders and the terminal devices; agent-lsp's state folder, git hooks and git config
 * read-only; the hidden places neither readable nor writable; no network but the filtering
 * proxy's port on loopback. Seatbelt has no PID namespace: processes stay visible to `ps`.
 * In SBPL the last matching rule wins, so the denials come after the allowances they narrow.
 * Written and documented; agent-lsp's CI cannot run macOS, so it is tested as text only.
 */
import type { Layout } from "./layout.js";

/** What the profile is built from. */
export interface SeatbeltPlan {
  layout: Layout;
  /** The folders macOS hands out as temporary ones ($TMPDIR under /private/var/folders). */
  tempDirs: readonly string[];
  /** The proxy's loopback port, when the network goes through it. */
  proxyPort?: number;
}

/** The SBPL text of the profile. */
export function seatbeltProfile(plan: SeatbeltPlan): string {
  const { layout } = plan;
  const writable = [...layout.writable, ...plan.tempDirs, "/private/tmp"];
  const lines = ["(version 1)", "(allow default)"];
  // A hidden folder that holds the project: closed first, the project opened again inside it.
  if (layout.hiddenAround.length) lines.push(`(deny file-read* ${layout.hiddenAround.map(subpath).join(" ")})`, `(allow file-read* ${layout.writable.map(subpath).join(" ")})`);
  lines.push(
    "(deny file-write*)",
    `(allow file-write* ${[...writable.map(subpath), '(literal "/dev/null")', '(regex #"^/dev/tty")', '(regex #"^/dev/fd/")'].join(" ")})`,
  );
  if (layout.readOnly.length) lines.push(`(deny file-write* ${layout.readOnly.map(subpath).join(" ")})`);
  const hidden = [...layout.hiddenDirs.map(subpath), ...layout.hiddenFiles.map(literal)];
  if (hidden.length) lines.push(`(deny file-read* file-write* ${hidden.join(" ")})`);
  // Every network operation, Unix sockets included (ssh-agent, docker would be ways out too).
  lines.push("(deny network*)");
  if (plan.proxyPort !== undefined) lines.push(`(allow network-outbound (remote ip "localhost:${plan.proxyPort}"))`);
  return `${lines.join("\n")}\n`;
}

function subpath(p: string): string {
  return `(subpath ${quoted(p)})`;
}

function literal(p: string): string {
  return `(literal ${quoted(p)})`;
}

/** An SBPL string: backslashes and quotes escaped. */
function quoted(p: string): string {
  return `"${p.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
