/**
 * Lists kept in one place stay in step with their users: the method names against the documented
 * method table, and the code-action commands against the editor shims that handle them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_ACTION_COMMANDS, DEFERRED_NOTIFICATIONS, DEFERRED_REQUESTS } from "../../../server/src/lsp/capabilities.js";
import { CLIENT_NOTIFICATIONS, CLIENT_REQUESTS, LANGUAGE_SERVICE_METHODS } from "../../../server/src/protocol/method-names.js";
import { METHODS } from "../../../server/src/protocol/methods.js";

const REPO = path.resolve(__dirname, "../../..");

describe("single sources", () => {
  it("the method table documents exactly the client methods the server serves", () => {
    const fromClient = (kind: string) => METHODS.filter((m) => m.direction === "client → server" && m.kind === kind).map((m) => m.method);
    expect(fromClient("request").sort()).toEqual([...CLIENT_REQUESTS].sort());
    expect(fromClient("notification").sort()).toEqual([...CLIENT_NOTIFICATIONS].sort());
    for (const name of CLIENT_REQUESTS) expect(DEFERRED_REQUESTS).toContain(name);
    for (const name of CLIENT_NOTIFICATIONS) expect(DEFERRED_NOTIFICATIONS).toContain(name);
  });

  it("the Neovim plugin registers a handler for exactly the server's code-action commands", () => {
    // client.lua lists the commands it handles client-side; the Emacs package runs whatever
    // command a code action names, so it keeps no list.
    const lua = readFileSync(path.join(REPO, "editors/nvim/lua/agent_lsp/client.lua"), "utf8");
    const list = /for _, name in ipairs\(\{([^}]*)\}\) do/.exec(lua)?.[1] ?? "";
    const named = [...list.matchAll(/"(agent\.[a-z]+)"/g)].map((m) => m[1]);
    expect(named).toEqual([...AGENT_ACTION_COMMANDS]);
  });

  it("the Neovim plugin and the Emacs package declare exactly the language-service methods the server knows", () => {
    const lua = readFileSync(path.join(REPO, "editors/nvim/lua/agent_lsp/language_service.lua"), "utf8");
    const luaList = /M\.METHODS = \{([^}]*)\}/.exec(lua)?.[1] ?? "";
    const elisp = readFileSync(path.join(REPO, "editors/emacs/agent-lsp-language.el"), "utf8");
    const elispList = /\(defconst agent-lsp-language-methods\s*\[([^\]]*)\]/.exec(elisp)?.[1] ?? "";
    const names = (list: string) => [...list.matchAll(/"([a-zA-Z/]+)"/g)].map((m) => m[1]);
    expect(names(luaList)).toEqual([...LANGUAGE_SERVICE_METHODS]);
    expect(names(elispList)).toEqual([...LANGUAGE_SERVICE_METHODS]);
  });
});
