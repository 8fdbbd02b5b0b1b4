/**
 * One interactive sign-in: a callback listener on the loopback address, the SDK's flow up to the
 * authorization URL (opened by the caller: the editor, or the system browser), the answer taken
 * from the redirect (or from the address the user pasted), `state` and the redirect checked
 * exactly, then the code redeemed by the SDK, which checks the answer's `iss` first. Tokens are
 * asked for the server's `resource`, with the scopes of the last sign-in and any a server asked
 * for since.
 */
import type { Sdk } from "../sdk.js";
import type { McpServerSpec } from "../specs.js";
import { SignInCheckError } from "./errors.js";
import { randomState, ServerOAuthProvider } from "./provider.js";
import { recordFor, type SignInRecord, type TokenStore } from "./token-store.js";

/** How long a sign-in waits for the browser. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** The person's side of a sign-in. */
export interface SignInUi {
  /** Shows the authorization address: opens it in a browser and tells the user where it is. */
  open(url: string): void | Promise<void>;
  /** The address the browser ended on, typed by the user (a remote shell), when the UI can ask. */
  pasted?(): Promise<string>;
}

/** What a sign-in needs. */
export interface SignInOptions {
  spec: McpServerSpec;
  store: TokenStore;
  sdk: Sdk["client"];
  clientMetadataUrl?: string;
  env?: NodeJS.ProcessEnv;
  ui: SignInUi;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Signs in to `spec`'s server; resolves with the stored record, or throws saying which step failed. */
export async function signIn(options: SignInOptions): Promise<SignInRecord> {
  const { spec, sdk } = options;
  // Imported here: node:http is not loaded for a session that never signs in.
  const { listenForCallback } = await import("./callback-listener.js");
  const listener = await listenForCallback(spec.oauth?.callbackPort ?? 0);
  try {
    const previous = await recordFor(options.store, spec.name, spec.url!);
    const scope = scopeToAsk(spec, previous);
    const state = randomState();
    const provider = new ServerOAuthProvider({
      spec,
      store: options.store,
      sdk,
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      ...(options.env ? { env: options.env } : {}),
      interactive: { redirectUrl: listener.redirectUrl, state, ...(scope ? { scope } : {}), open: (url) => options.ui.open(url.href) },
    });
    await provider.load();
    const started = await sdk.auth(provider, { serverUrl: spec.url!, ...(scope ? { scope } : {}), forceReauthorization: true });
    if (started === "REDIRECT") {
      const answer = await waitForAnswer(listener.answer, listener.redirectUrl, options);
      const code = checkAnswer(answer, state, spec.name);
      const iss = answer.get("iss") ?? undefined;
      await sdk.auth(provider, { serverUrl: spec.url!, authorizationCode: code, ...(iss !== undefined ? { iss } : {}), ...(scope ? { scope } : {}) });
    }
    const record = await provider.load().then(() => recordFor(options.store, spec.name, spec.url!));
    if (!record?.tokens) throw new SignInCheckError("refused", "the sign-in ended without tokens");
    return record;
  } finally {
    listener.close();
  }
}

/**
 * The configured scopes (they replace the server's suggestion), else those of the last sign-in,
 * in both cases with the ones a `403 insufficient_scope` asked for since; undefined lets the
 * SDK take the server's suggestion.
 */
export function scopeToAsk(spec: McpServerSpec, previous: SignInRecord | undefined): string | undefined {
  const words = [...(spec.oauth?.scopes ?? (previous?.requestedScope ?? previous?.tokens?.scope ?? "").split(" ")), ...(previous?.neededScope ?? "").split(" ")];
  const union = [...new Set(words.filter(Boolean))];
  return union.length ? union.join(" ") : undefined;
}

/** The answer from the listener or the pasted address, whichever comes first. */
async function waitForAnswer(fromListener: Promise<URLSearchParams>, redirectUrl: string, options: SignInOptions): Promise<URLSearchParams> {
  const candidates: Promise<URLSearchParams>[] = [fromListener];
  if (options.ui.pasted) candidates.push(options.ui.pasted().then((text) => pastedAnswer(text, redirectUrl)));
  let timer: NodeJS.Timeout | undefined;
  candidates.push(
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new SignInCheckError("cancelled", "no answer came from the browser in time; run the sign-in again")), options.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
      timer.unref();
      options.signal?.addEventListener("abort", () => reject(new SignInCheckError("cancelled", "the sign-in was cancelled")), { once: true });
    }),
  );
  try {
    return await Promise.race(candidates);
  } finally {
    clearTimeout(timer);
  }
}

/** The query of an address the user pasted; it must be exactly the sign-in's redirect. */
export function pastedAnswer(text: string, redirectUrl: string): URLSearchParams {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new SignInCheckError("redirect", "the pasted text is not an address; paste the whole address the browser ended on");
  }
  if (`${url.origin}${url.pathname}` !== redirectUrl) throw new SignInCheckError("redirect", `the pasted address is not the sign-in's redirect (${redirectUrl})`);
  return url.searchParams;
}

/** The code of an answer whose `state` is the sign-in's; anything else stops the sign-in. */
function checkAnswer(answer: URLSearchParams, state: string, server: string): string {
  if (answer.get("state") !== state) throw new SignInCheckError("state", `the answer to the sign-in to "${server}" does not carry the state agent-lsp sent; nothing was redeemed`);
  const error = answer.get("error");
  if (error) {
    const description = answer.get("error_description");
    throw new SignInCheckError("refused", `the authorization server refused the sign-in: ${error}${description ? ` (${description.slice(0, 200)})` : ""}`);
  }
  const code = answer.get("code");
  if (!code) throw new SignInCheckError("refused", "the answer carries no authorization code");
  return code;
}
