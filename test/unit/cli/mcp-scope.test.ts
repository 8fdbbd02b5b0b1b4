/**
 * `--scope user|local|project` (`-s`) says where `mcp add` writes, as Claude Code spells it;
 * an OAuth scope given there is refused pointing at --oauth-scope. And `mcp list` leaves the
 * keyring's how-to-fix to doctor instead of repeating it on every remote server's line.
 */
import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../../server/src/cli/args.js";
import { statusLine } from "../../../server/src/cli/mcp-list.js";
import { configScope } from "../../../server/src/cli/mcp-scope.js";
import { KeyringUnavailableError } from "../../../server/src/mcp/oauth/keyring-store.js";

const scopeOf = (argv: string[]) => configScope(parseArgs(argv, { valued: ["scope"], flags: ["project"], short: { s: "scope" } }));

describe("mcp --scope", () => {
  it("user and local write the user's files (local with a note), project the project's", () => {
    expect(scopeOf([])).toEqual({ project: false });
    expect(scopeOf(["-s", "user"])).toEqual({ project: false });
    expect(scopeOf(["--scope", "project"])).toEqual({ project: true });
    expect(scopeOf(["--project"])).toEqual({ project: true });
    expect(scopeOf(["-s", "local"])).toMatchObject({ project: false, note: expect.stringContaining("user config") });
  });

  it("an OAuth scope or a contradiction is a usage error naming the option", () => {
    expect(() => scopeOf(["--scope", "repo"])).toThrow(UsageError);
    expect(() => scopeOf(["--scope", "repo"])).toThrow(/OAuth scopes are --oauth-scope repo/);
    expect(() => scopeOf(["--project", "-s", "user"])).toThrow(/--project and --scope user disagree/);
  });
});

describe("mcp list lines", () => {
  it("leave the keyring's cause and advice to doctor", () => {
    const error = new KeyringUnavailableError("DBus error: org.freedesktop.secrets was not provided").message;
    const line = statusLine({ name: "gh", transport: "http", state: "failed", error, tools: 0, resources: 0, templates: 0, prompts: 0, warnings: [], signIn: `sign-in state unknown: ${error}` });
    expect(line).toBe(
      "gh               http  -          failed: the OS keyring cannot be reached (agent-lsp doctor says why and how to fix it); sign-in state unknown: the OS keyring cannot be reached (agent-lsp doctor says why and how to fix it)",
    );
  });
});
