/**
 * The values the LSP front end takes from vscode-languageserver, imported here and nowhere else
 * (types may be imported directly). The library is CommonJS, and the bundle gives each file that
 * imports its values its own copy of the library's 307 exports: eleven files made eleven copies
 * on the way to a new session.
 */
export {
  AbstractMessageReader,
  ApplyWorkspaceEditRequest,
  CancellationTokenSource,
  createConnection,
  ErrorCodes,
  MessageType,
  ResponseError,
  ShowDocumentRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  StreamMessageWriter,
  TextDocuments,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from "vscode-languageserver/node.js";
