/**
 * Records in the OS keyring through @napi-rs/keyring: Secret Service on Linux (pinned to it, so a
 * machine without one says so instead of falling back to the kernel keyring, which forgets at
 * logout), the Keychain on macOS, the Credential Manager on Windows. The native module is loaded
 * on first use: an editor that never signs in never loads it.
 */
import { accountOf, KEYRING_SERVICE, parseRecord, type SignInRecord, type TokenStore } from "./token-store.js";

/** How to fix a keyring that cannot be reached: said once (doctor), not on every server's line. */
export const KEYRING_ADVICE =
  "On a desktop, start your keyring (gnome-keyring, KWallet, KeePassXC with Secret Service) and unlock it; " +
  'on a machine without one, set [mcp] token_store = "file" in ~/.config/agent-lsp/config.toml to keep tokens in a file only you can read.';

const UNREACHABLE = "no OS keyring service could be reached to keep the sign-in tokens";

/** The keyring cannot be reached: what happened and how to fix it. */
export class KeyringUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`${UNREACHABLE} (${reason}). ${KEYRING_ADVICE}`);
    this.name = "KeyringUnavailableError";
  }
}

/** A {@link KeyringUnavailableError}'s message within a longer text. */
const UNAVAILABLE_MESSAGE = new RegExp(`${UNREACHABLE} \\(.*?\\)\\. ${KEYRING_ADVICE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "g");

/** `text` with the keyring's cause and fix left to doctor: a list of servers says them once, not on every line. */
export function withoutKeyringAdvice(text: string): string {
  return text.replace(UNAVAILABLE_MESSAGE, "the OS keyring cannot be reached (agent-lsp doctor says why and how to fix it)");
}

type Keyring = typeof import("@napi-rs/keyring");
let loading: Promise<Keyring> | undefined;

/** The OS keyring. */
export class KeyringTokenStore implements TokenStore {
  readonly where = "the OS keyring";

  async load(server: string): Promise<SignInRecord | undefined> {
    return parseRecord(await this.run(server, (entry) => entry.getPassword()));
  }

  async save(server: string, record: SignInRecord): Promise<void> {
    await this.run(server, (entry) => entry.setPassword(JSON.stringify(record)));
  }

  async delete(server: string): Promise<boolean> {
    return this.run(server, (entry) => entry.deletePassword());
  }

  private async run<T>(server: string, op: (entry: InstanceType<Keyring["AsyncEntry"]>) => Promise<T>): Promise<T> {
    let keyring: Keyring;
    try {
      keyring = await (loading ??= import("@napi-rs/keyring"));
    } catch (err) {
      loading = undefined;
      throw new KeyringUnavailableError(`the keyring module did not load: ${(err as Error).message}`);
    }
    try {
      return await op(new keyring.AsyncEntry(KEYRING_SERVICE, accountOf(server), { linux: { store: "secret-service" } }));
    } catch (err) {
      throw new KeyringUnavailableError((err as Error).message);
    }
  }
}
