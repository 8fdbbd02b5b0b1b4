/**
 * The Editor seam, in two halves: a document host (document-host.ts: open documents and edits)
 * and a session UI (session-ui.ts: prompts, questions, progress). A front end provides both;
 * the LSP front end's LspEditor is one object doing both jobs, the headless CLI pairs the disk
 * with the terminal. The core's parts take only the half they use.
 */
import type { DocumentHost } from "./document-host.js";
import type { SessionUI } from "./session-ui.js";

/** Both halves, as a front end provides them. */
export type Editor = DocumentHost & SessionUI;
