/**
 * The exit statuses of `agent-lsp run` (and the other commands where they apply), as `run --help`
 * and docs/headless.md list them: scripts tell a refusal that needs a person apart from a failure.
 */

/** The turn ended normally. */
export const EXIT_OK = 0;
/** It did not: an error, a refusal by the model, a limit (max_turns, max_tokens), an unknown session. */
export const EXIT_FAILED = 1;
/** The command line does not fit (an unknown option, a missing argument). */
export const EXIT_USAGE = 2;
/**
 * A gated action was refused because it needed approval and no one could give it: no terminal to
 * ask on and no --allow-untrusted-tools. The turn may have gone on without it.
 */
export const EXIT_NEEDS_APPROVAL = 3;
/** Cancelled with Ctrl-C (at a prompt too), as shells report a program SIGINT ended. */
export const EXIT_CANCELLED = 130;

/** The exit-status lines of `run --help`. */
export const EXIT_HELP = `Exit status: 0 the turn ended normally; 1 it did not (an error, a refusal, a limit, an unknown
session); 2 usage error; 3 a gated action was refused because it needed approval and there was no
terminal to ask (run with --allow-untrusted-tools or a more permissive --mode); 130 cancelled (Ctrl-C,
also at an approval prompt).`;
