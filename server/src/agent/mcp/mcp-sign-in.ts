/**
 * Signing in to a remote MCP server from an editor: the authorization page opens in the user's
 * browser through the editor (`window/showDocument`, external), and the session's status line
 * and a `window/showMessage` say so with the address, for editors that cannot open it. Also the
 * `/mcp-login NAME` command, which signs in again (after an expired refresh or a server that asked
 * for more scopes) and restarts the server.
 */
import type { Editor } from "../../editor/editor.js";
import type { SessionEvents } from "../../editor/session-events.js";
import type { McpManager } from "../../mcp/manager.js";
import type { McpServerSpec } from "../../mcp/specs.js";
import { describeStatus } from "../../mcp/status-text.js";
import type { SlashCommand } from "../commands/slash-commands.js";

/** What an editor sign-in needs. */
export interface EditorSignInDeps {
  editor: Editor;
  events: SessionEvents;
  manager(): McpManager;
}

/** Signs in to `spec`'s server for `sessionId`, through the editor. */
export async function signInFromEditor(deps: EditorSignInDeps, spec: McpServerSpec, sessionId: string, signal?: AbortSignal): Promise<void> {
  await deps.manager().auth.signIn(
    spec,
    {
      async open(url) {
        const opened = (await deps.editor.openExternal?.(url)) ?? false;
        const text = opened
          ? `MCP server ${JSON.stringify(spec.name)} needs a sign-in: its sign-in page is open in your browser (${url}). agent-lsp waits for you to approve there.`
          : `MCP server ${JSON.stringify(spec.name)} needs a sign-in: open ${url} in a browser and approve there; agent-lsp waits for the answer.`;
        deps.events.emit(sessionId, { kind: "status", text });
        deps.editor.showMessage("info", text);
      },
    },
    signal,
  );
  deps.events.emit(sessionId, { kind: "status", text: `Signed in to the MCP server ${JSON.stringify(spec.name)}.` });
}

/** `/mcp-login NAME`: signs in to a remote server again and restarts it. */
export function mcpLoginCommand(deps: EditorSignInDeps, prepare: (sessionId: string) => Promise<void>): SlashCommand {
  return {
    name: "mcp-login",
    usage: "mcp-login <server>",
    summary: "Sign in to a remote MCP server (OAuth) in your browser, then restart it",
    async run(args, session) {
      const name = args[0];
      if (!name) return "Usage: /mcp-login <server>";
      const manager = deps.manager();
      manager.sync();
      const connection = manager.connection(name);
      if (!connection) return `No MCP server "${name}" is configured.`;
      if (!connection.spec.oauthEnabled) return `The MCP server "${name}" does not sign in with OAuth (it is local, or its config sends its own Authorization header).`;
      await signInFromEditor(deps, connection.spec, session.id);
      await connection.stop();
      await prepare(session.id);
      const status = manager.status(name);
      return `Signed in to "${name}". It is ${status ? describeStatus(status) : "configured"}.`;
    },
  };
}
