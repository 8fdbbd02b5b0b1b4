/**
 * What the sign-in tests share: a config naming one remote server, the file token store in a
 * temporary state folder, and the test's "user", who follows the authorization address with a
 * plain HTTP client (the authorization server approves at once) and so lands on agent-lsp's
 * callback, as a browser would.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_CONFIG, type Config, type McpServerTable } from "../../../server/src/config/schema.js";
import { McpAuth } from "../../../server/src/mcp/oauth/mcp-auth.js";
import type { SignInUi } from "../../../server/src/mcp/oauth/sign-in.js";
import { serverSpecs, type McpServerSpec } from "../../../server/src/mcp/specs.js";

/** A config with one remote server `name` at `url`. */
export function oauthConfig(name: string, table: McpServerTable, mcp: Partial<Config["mcp"]> = {}): Config {
  return { ...structuredClone(DEFAULT_CONFIG), mcp_servers: { [name]: table }, mcp: { ...DEFAULT_CONFIG.mcp, discover_timeout_s: 10, token_store: "file", ...mcp } };
}

/** An environment whose state folder is a fresh temporary one. */
export function tempStateEnv(): NodeJS.ProcessEnv {
  return { ...process.env, XDG_STATE_HOME: mkdtempSync(path.join(os.tmpdir(), "agent-lsp-oauth-state-")) };
}

/** The spec of `name` in `config`. */
export function specOf(config: Config, name: string): McpServerSpec {
  const spec = serverSpecs(config, os.tmpdir()).specs.find((s) => s.name === name);
  if (!spec) throw new Error(`no spec ${name}`);
  return spec;
}

/** McpAuth over `config` with its file store in `env`'s state folder. */
export function fileAuth(config: Config, env: NodeJS.ProcessEnv): McpAuth {
  return new McpAuth({ config: () => config, env });
}

/** The user who approves in the "browser": follows the address and the redirect it answers with. */
export function approvingUser(): SignInUi & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    async open(url) {
      opened.push(url);
      const answer = await fetch(url, { redirect: "manual" });
      const location = answer.headers.get("location");
      if (!location) throw new Error(`the authorization server did not redirect: ${answer.status} ${await answer.text()}`);
      await fetch(location);
    },
  };
}

/** The user on a remote shell: the browser cannot reach the callback; they paste the address it ended on. */
export function pastingUser(): SignInUi & { opened: string[] } {
  const opened: string[] = [];
  let paste!: (text: string) => void;
  const pasted = new Promise<string>((r) => (paste = r));
  return {
    opened,
    async open(url) {
      opened.push(url);
      const answer = await fetch(url, { redirect: "manual" });
      paste(answer.headers.get("location") ?? "");
    },
    pasted: () => pasted,
  };
}
