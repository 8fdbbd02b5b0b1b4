/**
 * One driver per front end over the built binary, so the same core tests run against both: the
 * LSP front end (`agent-lsp --stdio`, a client declaring the agent protocol) and the ACP front end
 * (`agent-lsp --acp`, the SDK's client). Each says what the user of that client would see in the
 * same terms: the answer's text, the tool calls' statuses, the permission prompts.
 */
import { spawnAcp, userConfigHome, type AcpHarness } from "./acp-client.js";
import { initialize, spawnServer, type SpawnedServer } from "./spawn-server.js";

/** How the next permission prompts are answered. */
export type PermissionReply = "allow_once" | "reject";

/** A front end driven as its client would. */
export interface FrontEndDriver {
  readonly name: "lsp" | "acp";
  newSession(): Promise<string>;
  /** One turn; resolves with how it ended. */
  prompt(sessionId: string, text: string): Promise<string>;
  cancel(sessionId: string): void;
  setMode(sessionId: string, mode: string): Promise<void>;
  /** Loads a saved session (its history replayed as updates). */
  loadSession(sessionId: string): Promise<void>;
  /** Runs a slash command (`undo`); resolves with the message shown. */
  command(sessionId: string, name: string): Promise<string>;
  /** The agent's text streamed so far in a session. */
  answerText(sessionId: string): string;
  /** The user messages replayed or echoed in a session. */
  userTexts(sessionId: string): string[];
  /** The statuses each tool call reached, by call id, in order. */
  toolStatuses(sessionId: string): Map<string, string[]>;
  /** How many permission prompts were asked. */
  permissionsAsked(): number;
  permissionReply: PermissionReply;
  close(): Promise<void>;
}

/** Starts `agent-lsp --stdio` with `options` as the user config, as a client with the agent protocol. */
export async function startLspDriver(root: string, options: Record<string, unknown>): Promise<FrontEndDriver> {
  const server = spawnServer(root, { XDG_CONFIG_HOME: userConfigHome(options), XDG_STATE_HOME: userConfigHome({}) });
  let asked = 0;
  const driver: FrontEndDriver = {
    name: "lsp",
    permissionReply: "allow_once",
    newSession: async () => ok(await server.request("agent/newSession", {})).sessionId,
    prompt: async (sessionId, text) => ok(await server.request("agent/prompt", { sessionId, prompt: text })).stopReason,
    cancel: (sessionId) => server.notify("agent/cancel", { sessionId }),
    setMode: async (sessionId, mode) => void ok(await server.request("agent/setMode", { sessionId, mode })),
    loadSession: async (sessionId) => void ok(await server.request("agent/loadSession", { sessionId })),
    command: async (sessionId, name) => ok(await server.request("agent/command", { sessionId, command: name, args: [] })).message,
    answerText: (sessionId) =>
      lspUpdates(server, sessionId)
        .filter((u) => u.kind === "text")
        .map((u) => u.text)
        .join(""),
    userTexts: (sessionId) => lspUpdates(server, sessionId).filter((u) => u.kind === "user_message").map((u) => u.text),
    toolStatuses: (sessionId) => statuses(lspUpdates(server, sessionId).filter((u) => u.kind === "tool_call" || u.kind === "tool_call_update").map((u) => [u.id, u.status])),
    permissionsAsked: () => asked,
    close: async () => void server.child.kill("SIGKILL"),
  };
  server.onRequest("agent/requestPermission", () => {
    asked++;
    return { optionId: driver.permissionReply };
  });
  server.onRequest("workspace/applyEdit", () => ({ applied: true }));
  await initialize(server, root, undefined, { experimental: { agent: { requestPermission: true } } });
  return driver;
}

/** Starts `agent-lsp --acp` with `options` as the user config (no client fs: files on disk). */
export async function startAcpDriver(root: string, options: Record<string, unknown>): Promise<FrontEndDriver> {
  const h: AcpHarness = spawnAcp(root, userConfigHome(options));
  await h.initialize({});
  const of = (sessionId: string) => h.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  const text = (sessionId: string, kind: "agent_message_chunk" | "user_message_chunk") =>
    of(sessionId)
      .filter((u) => u.sessionUpdate === kind)
      .map((u) => {
        const content = (u as { content?: { type?: string; text?: string } }).content;
        return content?.type === "text" ? (content.text ?? "") : "";
      });
  const driver: FrontEndDriver = {
    name: "acp",
    get permissionReply() {
      return h.permission === "reject_once" ? "reject" : "allow_once";
    },
    set permissionReply(reply: PermissionReply) {
      h.permission = reply === "reject" ? "reject_once" : "allow_once";
    },
    newSession: async () => (await h.agent.request("session/new", { cwd: root, mcpServers: [] })).sessionId,
    prompt: async (sessionId, prompt) => (await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] })).stopReason,
    cancel: (sessionId) => void h.agent.notify("session/cancel", { sessionId }),
    setMode: async (sessionId, modeId) => void (await h.agent.request("session/set_mode", { sessionId, modeId })),
    loadSession: async (sessionId) => void (await h.agent.request("session/load", { sessionId, cwd: root, mcpServers: [] })),
    command: async (sessionId, name) => {
      const before = text(sessionId, "agent_message_chunk").length;
      await h.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `/${name}` }] });
      return text(sessionId, "agent_message_chunk").slice(before).join("");
    },
    answerText: (sessionId) => text(sessionId, "agent_message_chunk").join(""),
    userTexts: (sessionId) => text(sessionId, "user_message_chunk"),
    toolStatuses: (sessionId) =>
      statuses(
        of(sessionId)
          .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")
          .map((u) => [(u as { toolCallId: string }).toolCallId, ACP_STATUS[(u as { status?: string }).status ?? ""] ?? ""]),
      ),
    permissionsAsked: () => h.permissions.length,
    close: () => h.close(),
  };
  return driver;
}

/** ACP's statuses in our words, so both drivers report the same. */
const ACP_STATUS: Record<string, string> = { pending: "pending", in_progress: "running", completed: "completed", failed: "failed" };

function ok(response: { result?: any; error?: { message: string } }): any {
  if (response.error) throw new Error(response.error.message);
  return response.result;
}

function lspUpdates(server: SpawnedServer, sessionId: string): any[] {
  return server.messages.filter((m) => m.method === "agent/update" && m.params.sessionId === sessionId).map((m) => m.params.update);
}

/** Statuses per call id, in order, repeats and blanks left out. */
function statuses(pairs: [string, string][]): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const [id, status] of pairs) {
    const list = byId.get(id) ?? [];
    if (status && list.at(-1) !== status) list.push(status);
    byId.set(id, list);
  }
  return byId;
}
