/**
 * The built server never makes the user's home (or `/`) a project root: started there, with no
 * root from the editor, it says so and keeps its state in the user's state folder; nothing is
 * created where it was started.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeProviderOptions, tempProject } from "../helpers/agent-setup.js";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { spawnServer, type SpawnedServer } from "../helpers/spawn-server.js";

let fake: FakeProvider | undefined;
let server: SpawnedServer | undefined;
let base: string | undefined;
afterEach(async () => {
  server?.child.kill("SIGKILL");
  await fake?.close();
  if (base) rmSync(base, { recursive: true, force: true });
  server = fake = base = undefined;
});

describe("a server started in the user's home", () => {
  it.each([
    ["with no root from the editor", () => ({ rootUri: null })],
    ["with the home as its root", (home: string) => ({ rootUri: new URL(`file://${home}/`).href, workspaceFolders: [{ uri: new URL(`file://${home}`).href, name: "home" }] })],
  ])("%s: says so, works in the state folder, writes nothing into the home", async (_name, rootOf) => {
    base = tempProject("agent-lsp-home-");
    const home = path.join(base, "home");
    const state = path.join(base, "state");
    mkdirSync(home);
    fake = await startFakeProvider();
    server = spawnServer(home, { HOME: home, XDG_STATE_HOME: state, XDG_CONFIG_HOME: path.join(base, "config") });
    const init = await server.request("initialize", { processId: process.pid, capabilities: {}, initializationOptions: fakeProviderOptions(fake), ...rootOf(home) });
    expect(init.result.serverInfo.name).toBe("agent-lsp");
    server.notify("initialized", {});
    const said = await server.waitFor((m) => m.method === "window/showMessage" && /home folder/.test(m.params.message));
    expect(said.params.message).toContain(`${home} is your home folder, not a project folder`);
    const { result } = await server.request("agent/newSession", {});
    fake.enqueue({ text: "Hello." });
    expect((await server.request("agent/prompt", { sessionId: result.sessionId, prompt: "hi" })).result.stopReason).toBe("end_turn");

    const noProject = path.join(state, "agent-lsp", "no-project");
    expect(existsSync(path.join(noProject, ".agent-lsp", "conversations", `${result.sessionId}.jsonl`))).toBe(true);
    expect(readdirSync(home)).toEqual([]);
  });
});
