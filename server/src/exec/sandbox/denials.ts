/**
 * A refusal by the sandbox, said so: a bare "Permission denied" or "Read-only file system" in a
 * command's output leaves the model guessing (and retrying). When such a line names a place the
 * sandbox hides or keeps read-only, or the output shows a name lookup that failed without a
 * network, the result gains a sentence naming the path, why, and what to do instead.
 */
import path from "node:path";
import { isInside, type Layout } from "./layout.js";

/** What the explanation needs about the launch. */
export interface DenialContext {
  layout: Layout;
  cwd: string;
  /** Whether the command had the filtering proxy (`[exec] network = "allow_hosts"`). */
  proxied: boolean;
}

/** How a command asks to leave the sandbox, for the sentences that suggest it. */
const LEAVE = "If the task needs it, run the command again with `outside_sandbox` set to the reason (the user is asked).";

const READ_ONLY_ERROR = /read-only file system|\bEROFS\b|\[Errno 30\]/i;
const DENIED_ERROR = /permission denied|\bEACCES\b|\[Errno 13\]|operation not permitted|\bEPERM\b/i;
const NO_NETWORK = /could not resolve host|temporary failure in name resolution|network is unreachable|getaddrinfo (EAI_AGAIN|ENOTFOUND)|name or service not known|\bENETUNREACH\b/i;

/** Most paths explained in one result. */
const MAX_EXPLAINED = 5;

/** Sentences about what in `output` the sandbox refused; empty when nothing was. */
export function explainDenials(output: string, context: DenialContext): string[] {
  const said = new Map<string, string>();
  let network = false;
  for (const line of output.split("\n")) {
    if (!network && !context.proxied && NO_NETWORK.test(line)) network = true;
    const readOnly = READ_ONLY_ERROR.test(line);
    const denied = DENIED_ERROR.test(line);
    if (!readOnly && !denied) continue;
    for (const candidate of pathsIn(line)) {
      const abs = path.resolve(context.cwd, candidate);
      if (said.has(abs) || said.size >= MAX_EXPLAINED) continue;
      const why = denied ? hiddenReason(abs, context.layout) ?? (readOnly ? writeReason(abs, context.layout) : undefined) : writeReason(abs, context.layout);
      if (why) said.set(abs, `The sandbox refused ${abs}: ${why}`);
    }
  }
  const sentences = [...said.values()];
  if (network) sentences.push(`The sandbox gives commands no network ([exec] network = "off"), so names do not resolve and nothing can be reached. ${LEAVE}`);
  return sentences;
}

/** Why reading `abs` is refused, when it is a hidden place. */
function hiddenReason(abs: string, layout: Layout): string | undefined {
  const around = layout.hiddenAround.some((d) => isInside(d, abs)) && !layout.writable.some((w) => isInside(w, abs));
  const hidden = around || layout.hiddenFiles.includes(abs) || layout.hiddenDirs.some((d) => isInside(d, abs));
  return hidden ? "it is hidden from commands (credentials, agent-lsp's own settings and state, and [policy] sensitive_paths are never readable in the sandbox)." : undefined;
}

/** Why writing `abs` is refused, when the sandbox keeps it read-only. */
function writeReason(abs: string, layout: Layout): string | undefined {
  const hidden = hiddenReason(abs, layout);
  if (hidden) return hidden;
  if (layout.readOnly.some((p) => isInside(p, abs))) {
    return "it stays read-only in the sandbox (agent-lsp's .agent-lsp folder, git hooks and git config: a command must not leave code that runs later outside it). Change these with the file tools, which ask.";
  }
  if (isInside("/tmp", abs) || layout.writable.some((w) => isInside(w, abs))) return undefined;
  return `the sandbox lets commands write only inside the project and the private /tmp; everything else is read-only. ${LEAVE}`;
}

/** The words of an error line that may be paths: quoted ones, and unquoted ones with a slash. */
function pathsIn(line: string): string[] {
  const found: string[] = [];
  // The curly quotes are written \u2018 \u2019 \u201c \u201d: one character outside ASCII would make
  // V8 hold the whole bundle chunk this lands in as two-byte text, twice its size.
  for (const m of line.matchAll(/[\u2018'"`\u201c]([^\u2018\u2019'"`\u201c\u201d\n]+)[\u2019'"`\u201d]/g)) if (looksLikePath(m[1]!)) found.push(m[1]!);
  const unquoted = line.replace(/[\u2018'"`\u201c][^\u2018\u2019'"`\u201c\u201d\n]*[\u2019'"`\u201d]/g, " ");
  for (const word of unquoted.split(/[\s:,;()]+/)) if (looksLikePath(word)) found.push(word);
  return found;
}

function looksLikePath(word: string): boolean {
  return /^(\/|\.{1,2}\/|~\/)/.test(word) || (word.includes("/") && !/^[a-z]+:\/\//i.test(word) && !/\s/.test(word));
}
