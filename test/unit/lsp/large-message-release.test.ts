/**
 * The LSP reader and the open documents ask for memory back after something large: a message of
 * megabytes once it has come in, a document of megabytes once it is closed; small ones never.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("../../../server/src/util/release-memory.js", () => ({ releaseAfterLargeWork: vi.fn(), collectSoon: vi.fn() }));
const { releaseAfterLargeWork, collectSoon } = await import("../../../server/src/util/release-memory.js");
const { MessageSource } = await import("../../../server/src/lsp/message-source.js");
const { observableDocuments } = await import("../../../server/src/lsp/document-sync.js");
const { LARGE_INPUT_BYTES } = await import("../../../server/src/util/large-input.js");

afterEach(() => vi.clearAllMocks());

const frame = (message: object) => {
  const body = JSON.stringify(message);
  return Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
};
const didOpen = (text: string) => ({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri: "file:///big.txt", languageId: "plaintext", version: 1, text } } });

describe("memory given back after large input", () => {
  it("the reader asks once after a message of megabytes, never after small ones", () => {
    const input = new PassThrough();
    const got: object[] = [];
    new MessageSource(input, () => undefined).listen({ message: (m) => got.push(m), close: () => {}, error: () => {} });
    input.write(frame({ jsonrpc: "2.0", method: "small" }));
    expect(releaseAfterLargeWork).not.toHaveBeenCalled();
    const bytes = frame(didOpen("x".repeat(LARGE_INPUT_BYTES + 1)));
    for (let i = 0; i < bytes.length; i += 65536) input.emit("data", bytes.subarray(i, i + 65536));
    input.write(frame({ jsonrpc: "2.0", method: "small again" }));
    expect(got).toHaveLength(3);
    expect(releaseAfterLargeWork).toHaveBeenCalledTimes(1);
  });

  it("closing a document of megabytes asks for a collection; closing a small one does not", () => {
    const handlers: Record<string, (params: unknown) => void> = {};
    const on = (name: string) => (handler: (params: unknown) => void) => void (handlers[name] = handler);
    const connection = { onDidOpenTextDocument: on("open"), onDidChangeTextDocument: on("change"), onDidCloseTextDocument: on("close"), onWillSaveTextDocument: on("willSave"), onWillSaveTextDocumentWaitUntil: on("willSaveUntil"), onDidSaveTextDocument: on("save") };
    observableDocuments().documents.listen(connection as never);
    for (const [uri, size, collects] of [["file:///small.txt", 10, 0], ["file:///big.txt", LARGE_INPUT_BYTES + 1, 1]] as const) {
      handlers.open!({ textDocument: { uri, languageId: "plaintext", version: 1, text: "y".repeat(size) } });
      handlers.close!({ textDocument: { uri } });
      expect(collectSoon).toHaveBeenCalledTimes(collects);
    }
  });
});
