/** Renders docs/protocol.md from the method table (protocol/methods.ts). */
import { z } from "zod";
import { METHODS, type MethodSpec } from "./methods.js";

const INTRO = `# The agent-lsp protocol

agent-lsp speaks standard LSP over stdio (Content-Length framing) plus the methods below. Shapes
follow the Agent Client Protocol where it has one. This file is generated from
\`server/src/protocol/methods.ts\` (run \`UPDATE_DOCS=1 npx vitest run test/unit/protocol/doc.test.ts\`);
a test fails when the two disagree.

Standard LSP used by agent-lsp: \`initialize\` / \`initialized\` / \`shutdown\` / \`exit\`, incremental
text sync (\`didOpen\` / \`didChange\` / \`didClose\`: the open documents are what the agent reads),
\`workspace/executeCommand\` (\`agent.newSession\`, \`agent.prompt\`, \`agent.cancel\`, and the code-action
commands), \`workspace/applyEdit\` (every change to an open document), \`window/showMessageRequest\`,
\`window/showMessage\` and \`$/progress\`. Every request to the client is withdrawn with
\`$/cancelRequest\` when its turn is cancelled (and \`workspace/applyEdit\` after
\`apply_edit_timeout_s\`).

An answer of \`applied: true\` to \`workspace/applyEdit\` counts as applied. The next \`didChange\` of
the document settles it, however late it comes (some clients send it from an idle timer): changes
that pass through the edit's result confirm it; ranged changes that never do, or a whole text that
is the old one, show the edit was skipped, and the session is told then. Until it comes, the
server reads the document as the edit's result, and sends the next edit of it with \`version:
null\` (the version a client has after an edit is not knowable: clients count every buffer
change), computed against that text.

## Request ids

Every request the server sends goes out under a **random** JSON-RPC id (a UUID string), never a
counter: libraries number their requests from 1 on every connection, so an editor still holding a
prompt of an earlier server could otherwise answer it to this one under an id that names one of
this server's requests. An answer is routed by its id alone; an answer whose id names no request
this server sent and still waits for (a client of an earlier server, a second answer) is refused:
it is logged and the user is told in \`window/showMessage\`. \`$/cancelRequest\` names the random id.

Every permission request and question also carries its own \`requestId\` (random, unique across
sessions and server restarts) wherever the user's answer can travel apart from the JSON-RPC
response: in the params of \`agent/requestPermission\` and \`agent/askUser\` (echo it in the
answer), on every action of a \`window/showMessageRequest\` to clients that declare
\`window.showMessage.messageActionItem.additionalPropertiesSupport\`, in the option ids of an ACP
\`session/request_permission\` (\`allow_once@<requestId>\`).
An answer that names another request is refused with a message and counts as no answer (\`reject\`
for a permission request), never applied to the request it reached.

## Order and fairness

Messages are handled in the order they arrive while the server keeps up. When they queue up (a
client writing thousands of requests at once), requests that name a session (\`params.sessionId\`)
wait in a queue of that session's own, everything else (\`agent/listSessions\`, answers,
notifications, document sync) in a common one, and the queues take turns one message at a time:
a burst on one session delays another session's request, or a cheap one, by a message or two
instead of the whole burst (\`npm run bench\`: \`flood_*\`). Order within a session is kept, and a document or workspace notification (\`textDocument/didChange\`
and the like) is never overtaken: a prompt written after a buffer changed finds the change applied.
\`agent/cancel\` goes ahead of its session's queued prompts and runs once more after them, so no
prompt sent before it outlives it; one of those prompts may then start a turn the second run
cancels, instead of being refused as busy.

## Errors

Every custom request's params are validated. A bad param gets \`-32602\` (InvalidParams) with a
message that names the field; an unknown method \`-32601\`; a request that cannot be carried out
now \`-32803\`; a bug \`-32603\`. Malformed JSON gets \`-32700\` (with \`id: null\`), and a message whose
Content-Length lies gets \`-32600\` naming both lengths. Every message with an id is answered: one
that is not a valid JSON-RPC 2.0 request (\`"jsonrpc"\` missing or not \`"2.0"\`, \`"method"\` missing or
not a string, \`"params"\` neither an object nor an array, an id neither a string nor a number) gets
\`-32600\` (Invalid Request) saying which, with its id (\`null\` when the id itself is bad);
\`"params": null\` counts as no params. An invalid notification is never answered: it is logged to
stderr and ignored. The server keeps running after all of them.

## Diffs

The \`diff\` of \`agent/requestPermission\` and of a \`tool_call_update\` is a unified
diff (\`--- a/path\` / \`+++ b/path\` / \`@@\` hunks, 3 lines of context, \`/dev/null\` for a created or
deleted file). One change shows at most 1 MB of it: a file whose hunks would go past that is shown
as a note line before its header, with no hunks (\`diff of big.txt not shown: its 4.0 MB would go past the
1.0 MB of diff shown per change (+50000 -50000 lines between lines 1 and 50000)\`), where diff parsers skip
text. The full old and new text of each file are still in \`files\` for a client that reviews the
change itself.

## Client capabilities agent-lsp reads

- \`experimental.agent.requestPermission: true\`: send \`agent/requestPermission\` instead of \`window/showMessageRequest\`.
- \`experimental.agent.askUser: true\`: send \`agent/askUser\`.
- \`experimental.agent.saveDocuments: true\`: send \`agent/saveDocuments\` before a command runs.
- \`experimental.agent.languageService: string[]\`: the \`agent/languageService\` methods the client serves; the
  language tools that need them are offered. The Neovim plugin and the Emacs package declare all of them;
  Helix declares none (docs/tools.md).
- \`workspace.workspaceEdit.resourceOperations\`: create/rename/delete files through \`workspace/applyEdit\`.
- \`window.workDoneProgress\`: report long work through \`$/progress\`.
- \`experimental.agent\` (any value): the client speaks the agent protocol and gets \`agent/update\`
  (so does a client that calls an \`agent/*\` request without declaring it); the chat file is off
  unless \`[editor] chat_file = true\`.
- \`clientInfo.name\`: \`helix\` shows one row of a message and drops line breaks, so its
  \`window/showMessage\` text comes laid out for that row (paragraphs apart with " — ", the lines of
  a paragraph joined by a space).

## \`workspace/executeCommand\`

For clients without the agent protocol (eglot, Helix), and for the code actions. A client that
declares \`experimental.agent\` is told every command in \`executeCommandProvider\`; others only those
a command palette can run without arguments (\`agent.send\`, \`agent.openChat\`, \`agent.newSession\`,
\`agent.cancel\`; \`agent.prompt\` too for Helix 25.07 and later, which passes arguments). The others
still run from the code actions that carry their arguments; called without any, they answer with a
sentence that points at the menu.

- \`agent.newSession\` \`[{cwd?, mode?, model?}]\` -> \`{sessionId, mode, model}\`.
- \`agent.prompt\` \`[sessionId, prompt, context?]\`, \`context\` as in \`agent/prompt\` (\`{uri?, range?,
  diagnostics?}\`).
- \`agent.fix\`, \`agent.explain\`, \`agent.refactor\`, \`agent.tests\` \`[{uri, range, diagnostics?,
  instruction?, sessionId?, wait?}]\` (the code actions carry these arguments; \`agent.fix\` needs
  \`diagnostics\`, \`agent.refactor\` asks how when \`instruction\` is absent).
- \`agent.cancel\` \`[sessionId?]\` -> \`{cancelled: sessionId[]}\`: stops that session's turn, or every
  running turn without an argument (command palettes send none).

\`textDocument/codeAction\` offers these commands as code actions. A request the client sends on
its own (\`context.triggerKind: 2\`, a hint gutter or lightbulb asking on every cursor move) gets
only the actions that fit the position: fix for a diagnostic in the range, the selection's
actions for a range of at least two characters that are not all blank (a one-cell cursor is no
selection), and in the chat file the answers of the waiting block under the cursor; never the
generic "about this line" / "fix line N" / "Open agent chat", so an ordinary line shows no hint.

With the chat file on (a client that does not declare \`experimental.agent\`, or \`[editor]
chat_file = true\`; docs/helix.md), \`agent.newSession\` without arguments starts the session the
chat file then uses, \`agent.prompt\` also takes a single \`[prompt]\` (run in that session, written
into the file), a failing command is also said in \`window/showMessage\`, \`agent.fix\` works without
\`diagnostics\` (the prompt quotes the line), and these commands serve the file's code actions:

- \`agent.send\` \`[]\`: sends the draft, the text under the last \`## You\` of \`.agent-lsp/chat.md\`; a
  draft that starts with \`/\` runs as a slash command, its answer written into the file
  (docs/any-client.md).
- \`agent.openChat\` \`[]\` -> \`{shown, uri}\`: creates the file if needed and opens it
  (\`window/showDocument\`).
- \`agent.addSelection\` \`[{uri, range}]\`: adds \`path:lines\` and the quoted lines to the draft.
- \`agent.answer\` \`[{block, answer?}]\`: answers approval or question block \`#block\` (its random id;
  \`allow_once\`, \`allow_always\`, \`reject\`, or a question's choice; no \`answer\`: the text written on
  the block's answer line). A \`reject\` carries that text to the model as the reason. \`-32803\`, and
  nothing done, when this server is not waiting on that block (settled, from before a restart, or
  not written by it).
- \`agent.setMode\` \`[mode]\`, \`agent.command\` \`[command, ...args]\`: the chat session's safety mode
  and slash commands (\`undo\`, \`checkpoints\`...), answered in \`window/showMessage\`.

A command that starts a turn is answered **as soon as the turn runs** (before a question it asks
first, such as the refactor goal): \`{sessionId, status: "started"}\`, or \`{sessionId, status:
"queued"}\` when the chat file has a block waiting for an answer (the turn starts once the
waiting turn ends, docs/any-client.md). Clients such as eglot call
executeCommand synchronously with a short timeout, so the answer cannot wait for the model. The
turn's end is reported by \`$/progress\` (begun with a readable title such as \`Agent: fix
math.js:2\`; tool calls and status lines, like "Waiting for your answer in the editor", as reports;
the outcome as its end) and, to clients that do not declare \`experimental.agent\`, a
\`window/showMessage\` with the outcome, the answer (one paragraph per model call) and the steps
that did not happen (declined, refused, cancelled, failed). A client that calls asynchronously and
wants the end as the answer passes \`wait: true\` (code actions) and gets \`{sessionId, status:
"ended", stopReason, usage, error?, answer}\`. A busy session is refused at once with \`-32803\`.
`;

/** The whole document. */
export function renderProtocolDoc(): string {
  return `${INTRO}\n${METHODS.map(renderMethod).join("\n")}`;
}

function renderMethod(m: MethodSpec): string {
  const lines = [`## \`${m.method}\``, "", `${m.direction}, ${m.kind}. ${m.summary}`, "", "**Params**", ""];
  if (m.params) lines.push("```json", JSON.stringify(paramsSchema(m.params), null, 2), "```");
  else lines.push(`\`${m.paramsText}\``);
  if (m.result) lines.push("", "**Result**", "", `\`${m.result}\``);
  lines.push("", "**Errors**", "", ...(m.errors.length ? m.errors.map((e) => `- ${e}`) : ["- none"]));
  lines.push("", "**Example**", "", "```json", JSON.stringify(exampleMessage(m), null, 2));
  if (m.example.result !== undefined) lines.push(JSON.stringify({ jsonrpc: "2.0", id: 1, result: m.example.result }, null, 2));
  lines.push("```", "");
  return lines.join("\n");
}

function exampleMessage(m: MethodSpec): object {
  return m.kind === "request" ? { jsonrpc: "2.0", id: 1, method: m.method, params: m.example.params } : { jsonrpc: "2.0", method: m.method, params: m.example.params };
}

function paramsSchema(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
