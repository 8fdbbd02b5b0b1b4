// A tiny language server standing for the user's own (pyright, clangd ...) in the test that runs
// agent-lsp beside eglot: incremental text sync, and a warning on every line that says TODO.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, DiagnosticSeverity } from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, hoverProvider: true },
}));

function publish(doc) {
  const diagnostics = doc
    .getText()
    .split("\n")
    .flatMap((line, i) => {
      const at = line.indexOf("TODO");
      if (at < 0) return [];
      return [{ range: { start: { line: i, character: at }, end: { line: i, character: at + 4 } }, message: "tiny: a TODO is left here", severity: DiagnosticSeverity.Warning, source: "tiny" }];
    });
  connection.sendDiagnostics({ uri: doc.uri, diagnostics });
}

documents.onDidChangeContent((change) => publish(change.document));
connection.onHover(({ textDocument, position }) => {
  const doc = documents.get(textDocument.uri);
  const line = doc?.getText().split("\n")[position.line] ?? "";
  return { contents: `tiny sees: ${line}` };
});
documents.listen(connection);
connection.listen();
