/**
 * What agent-lsp keeps of one server's sign-in, and the two places it can keep it: the OS keyring
 * (service `agent-lsp`, account `mcp-oauth:<name>`) or, when the user says so, a file only they
 * can read in their state folder. A record is bound to the server's `url`: read back for another
 * url it counts as absent, so a config that points a known name somewhere else gets no tokens.
 */
import type { Config } from "../../config/schema.js";
import { addSecrets } from "../../util/log.js";
import { FileTokenStore } from "./file-store.js";
import { KeyringTokenStore } from "./keyring-store.js";

/** The service name of keyring entries. */
export const KEYRING_SERVICE = "agent-lsp";

/** The keyring account (and file name) of a server's record. */
export function accountOf(server: string): string {
  return `mcp-oauth:${server}`;
}

/** Tokens as the token endpoint gave them, with the time they expire. */
export interface SavedTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  /** Epoch milliseconds; absent when the server gave no lifetime. */
  expires_at?: number;
  /** The authorization server that issued them. */
  issuer?: string;
}

/** A client agent-lsp registered (Dynamic Client Registration) or named by its metadata document. */
export interface SavedClient {
  client_id: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  redirect_uris?: string[];
  issuer?: string;
  /** How the client came to be: registered, or a Client ID Metadata Document. */
  kind: "registered" | "metadata_document";
}

/** One server's sign-in as stored. */
export interface SignInRecord {
  /** The server url the tokens were issued for. */
  url: string;
  tokens?: SavedTokens;
  client?: SavedClient;
  /** The scope the last sign-in asked for. */
  requestedScope?: string;
  /** Scopes the server asked for in a `403 insufficient_scope` since: the next sign-in adds them. */
  neededScope?: string;
}

/** Where records live. */
export interface TokenStore {
  /** A short name for messages ("the OS keyring", "/home/u/.local/state/agent-lsp/mcp-oauth"). */
  readonly where: string;
  load(server: string): Promise<SignInRecord | undefined>;
  save(server: string, record: SignInRecord): Promise<void>;
  /** Whether there was a record to delete. */
  delete(server: string): Promise<boolean>;
}

/** The store `[mcp] token_store` names. */
export function tokenStoreFor(config: Config, env: NodeJS.ProcessEnv = process.env): TokenStore {
  return config.mcp.token_store === "file" ? new FileTokenStore(env) : new KeyringTokenStore();
}

/** The record of `server` for `url`: undefined when none is stored or it belongs to another url. */
export async function recordFor(store: TokenStore, server: string, url: string): Promise<SignInRecord | undefined> {
  const record = await store.load(server);
  if (!record || record.url !== url) return undefined;
  rememberSecrets(record);
  return record;
}

/** Registers every credential of a record with the log's redaction, before anything could print it. */
export function rememberSecrets(record: SignInRecord): void {
  addSecrets(record.tokens?.access_token, record.tokens?.refresh_token, record.client?.client_secret);
}

/** Parses a stored record; a record that is not one reads as absent (it is replaced at the next sign-in). */
export function parseRecord(text: string | null | undefined): SignInRecord | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as SignInRecord;
    return typeof value === "object" && value !== null && typeof value.url === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
