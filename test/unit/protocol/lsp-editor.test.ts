/** LspEditor's notifications when the editor is gone: logged, never an unhandled rejection. */
import { describe, expect, it } from "vitest";
import type { Connection } from "vscode-languageserver/node.js";
import { observableDocuments } from "../../../server/src/lsp/document-sync.js";
import { LspEditor } from "../../../server/src/lsp/lsp-editor.js";
import type { Logger } from "../../../server/src/util/log.js";

describe("LspEditor notifications", () => {
  it("logs an update or message the connection could not write", async () => {
    const warnings: string[] = [];
    const log: Logger = { error: () => {}, warn: (m) => warnings.push(m), info: () => {}, debug: () => {} };
    const connection = { sendNotification: () => Promise.reject(new Error("write EPIPE")) } as unknown as Connection;
    const editor = new LspEditor(connection, observableDocuments(), log);
    editor.sendUpdate("s-1", { kind: "text", text: "hi" });
    editor.showMessage("info", "hello");
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual(["agent/update not sent: write EPIPE", "window/showMessage not sent: write EPIPE"]);
  });
});
