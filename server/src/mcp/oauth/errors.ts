/**
 * Sign-in failures, each saying what the user can do. None carries a token, code, verifier or
 * secret: messages name servers, checks and addresses only.
 */

/** Why a server needs the user to sign in. */
export type SignInReason = "not_signed_in" | "expired" | "scope";

/** The server needs a sign-in that cannot happen here and now (no browser to open, a refresh that failed). */
export class SignInNeededError extends Error {
  constructor(
    readonly server: string,
    readonly reason: SignInReason,
    detail?: string,
  ) {
    super(`${REASONS[reason]}${detail ? ` (${detail})` : ""}: run \`agent-lsp mcp login ${server}\`${reason === "not_signed_in" ? "" : " to sign in again"}, or /mcp-login ${server} in the editor's chat`);
    this.name = "SignInNeededError";
  }
}

const REASONS: Record<SignInReason, string> = {
  not_signed_in: "it needs a sign-in",
  expired: "its sign-in expired and could not be refreshed",
  scope: "it needs more permissions than the sign-in granted",
};

/** A check of the sign-in failed: the flow stops, naming the check. */
export class SignInCheckError extends Error {
  constructor(
    readonly check: "issuer" | "pkce" | "metadata" | "state" | "iss" | "redirect" | "refused" | "cancelled",
    message: string,
  ) {
    super(message);
    this.name = "SignInCheckError";
  }
}
