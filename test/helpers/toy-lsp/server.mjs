#!/usr/bin/env node
/**
 * A small real language server for tests (started with `node server.mjs --stdio`), for a toy
 * language in `*.toy` files: `def NAME = words...` defines NAME, and every other word is a use
 * that must name a definition somewhere in the project, or the server publishes an error
 * "unknown name 'x'" for it. It serves definition, references, hover, documentSymbol,
 * workspace/symbol, prepareRename and rename over the project's `*.toy` files (open documents
 * as the editor has them, the rest from disk).
 *
 * Set TOY_LSP_DELAY_MS to make every request wait that long first (timeout tests). A use of the
 * name `explode` makes references fail with an error (error-path tests).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createConnection, ProposedFeatures, TextDocuments, ResponseError } from "vscode-languageserver/node.js";
import { TextDocument } from "vscode-languageserver-textdocument";

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const delayMs = Number(process.env.TOY_LSP_DELAY_MS ?? 0);
let root;

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Every word of a text: {name, line, character, isDef}. */
function words(text) {
  const out = [];
  text.split("\n").forEach((line, i) => {
    const def = /^(\s*def\s+)([A-Za-z_][A-Za-z0-9_]*)/.exec(line);
    const keywordAt = def ? def[1].indexOf("def") : -1;
    const nameAt = def ? def[1].length : -1;
    for (const m of line.matchAll(WORD)) {
      if (m.index === keywordAt) continue;
      out.push({ name: m[0], line: i, character: m.index, isDef: m.index === nameAt });
    }
  });
  return out;
}

/** The project's toy files: uri -> text (open documents win over the disk). */
function files() {
  const out = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".toy")) out.set(pathToFileURL(full).href, readFileSync(full, "utf8"));
    }
  };
  if (root) walk(root);
  for (const doc of documents.all()) out.set(doc.uri, doc.getText());
  return out;
}

/** Every occurrence of every word, with its file. */
function index() {
  const all = [];
  for (const [uri, text] of files()) for (const w of words(text)) all.push({ ...w, uri });
  return all;
}

const range = (w) => ({ start: { line: w.line, character: w.character }, end: { line: w.line, character: w.character + w.name.length } });
const location = (w) => ({ uri: w.uri, range: range(w) });

/** The word at a position of a document. */
function wordAt(uri, position) {
  const text = files().get(uri);
  if (text === undefined) return undefined;
  return words(text).find((w) => w.line === position.line && position.character >= w.character && position.character <= w.character + w.name.length);
}

function publish(doc) {
  const defined = new Set(index().filter((w) => w.isDef).map((w) => w.name));
  const diagnostics = words(doc.getText())
    .filter((w) => !w.isDef && !defined.has(w.name))
    .map((w) => ({ range: range(w), severity: 1, source: "toy", message: `unknown name '${w.name}'` }));
  void connection.sendDiagnostics({ uri: doc.uri, diagnostics });
}

const slow = (handler) => async (params) => {
  if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
  return handler(params);
};

connection.onInitialize((params) => {
  const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
  root = folder ? fileURLToPath(folder) : undefined;
  return {
    capabilities: {
      textDocumentSync: 1,
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      renameProvider: { prepareProvider: true },
    },
    serverInfo: { name: "toy-lsp" },
  };
});

documents.onDidChangeContent(() => {
  for (const doc of documents.all()) publish(doc);
});

connection.onDefinition(slow(({ textDocument, position }) => {
  const w = wordAt(textDocument.uri, position);
  return w ? index().filter((o) => o.isDef && o.name === w.name).map(location) : null;
}));

connection.onReferences(slow(({ textDocument, position, context }) => {
  const w = wordAt(textDocument.uri, position);
  if (!w) return [];
  if (w.name === "explode") throw new ResponseError(-32603, "the toy server exploded");
  return index().filter((o) => o.name === w.name && (context.includeDeclaration || !o.isDef)).map(location);
}));

connection.onHover(slow(({ textDocument, position }) => {
  const w = wordAt(textDocument.uri, position);
  const def = w && index().find((o) => o.isDef && o.name === w.name);
  if (!def) return null;
  const line = files().get(def.uri).split("\n")[def.line].trim();
  return { contents: { kind: "markdown", value: `toy definition\n\n    ${line}` } };
}));

connection.onDocumentSymbol(slow(({ textDocument }) => {
  const text = files().get(textDocument.uri) ?? "";
  return words(text)
    .filter((w) => w.isDef)
    .map((w) => ({ name: w.name, kind: 12, detail: "def", range: range(w), selectionRange: range(w) }));
}));

connection.onWorkspaceSymbol(slow(({ query }) =>
  index()
    .filter((w) => w.isDef && w.name.includes(query))
    .map((w) => ({ name: w.name, kind: 12, location: location(w) })),
));

connection.onPrepareRename(slow(({ textDocument, position }) => {
  const w = wordAt(textDocument.uri, position);
  return w ? { range: range(w), placeholder: w.name } : null;
}));

connection.onRenameRequest(slow(({ textDocument, position, newName }) => {
  const w = wordAt(textDocument.uri, position);
  if (!w) return null;
  const changes = {};
  for (const o of index().filter((o) => o.name === w.name)) (changes[o.uri] ??= []).push({ range: range(o), newText: newName });
  return { changes };
}));

documents.listen(connection);
connection.listen();
