/**
 * Shared set-up for Workspace tests: a temp project root, a fake editor, and a Workspace on them.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { GateDecision, GatedAction } from "../../../server/src/vocabulary/policy.js";
import { Workspace, type WorkspaceOptions } from "../../../server/src/workspace/workspace.js";
import { FakeEditor } from "../../helpers/fake-editor.js";

/** A temp project with a Workspace over it. */
export interface Project {
  root: string;
  editor: FakeEditor;
  ws: Workspace;
  /** Every action the change sets asked about. */
  asked: GatedAction[];
  /** Absolute path of a root-relative path. */
  at(rel: string): string;
  /** What the gate answers (default: allowed). */
  answer: (action: GatedAction) => GateDecision;
  authorize(action: GatedAction): Promise<GateDecision>;
  dispose(): void;
}

/** Makes a fresh project root in the temp folder. */
export function makeProject(options: WorkspaceOptions & { resourceOperations?: boolean } = {}): Project {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-lsp-ws-")));
  const editor = new FakeEditor({ resourceOperations: options.resourceOperations });
  const ws = new Workspace(root, editor, options);
  const project: Project = {
    root,
    editor,
    ws,
    asked: [],
    at: (rel) => path.join(root, rel),
    answer: () => ({ allowed: true }),
    async authorize(action) {
      project.asked.push(action);
      return project.answer(action);
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
  return project;
}
