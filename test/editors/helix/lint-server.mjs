// A tiny stand-in for a language's own server in the Helix tests: it reports a warning on every
// "a - b" so a diagnostic from *another* server sits on the line when agent-lsp's code actions are
// asked for. Plain JavaScript, so Helix can start it with node and nothing else.
import { createConnection, DiagnosticSeverity, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
  serverInfo: { name: "test-lint" },
}));

documents.onDidChangeContent(({ document }) => {
  const diagnostics = [];
  document
    .getText()
    .split("\n")
    .forEach((text, line) => {
      const at = text.indexOf("a - b");
      if (at < 0) return;
      diagnostics.push({
        range: { start: { line, character: at }, end: { line, character: at + 5 } },
        severity: DiagnosticSeverity.Warning,
        source: "lint",
        message: "lint: add() subtracts",
      });
    });
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
});

documents.listen(connection);
connection.listen();
