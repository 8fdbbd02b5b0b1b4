/**
 * Shared by the editor harnesses: runs an editor in its own process group and the fixture of a
 * case (a fake provider and a throwaway project, closed after each test).
 */
import { spawn } from "node:child_process";
import { afterEach } from "vitest";
import { startFakeProvider, type FakeProvider } from "../helpers/fake-provider/index.js";
import { createProject, type SpecProject } from "./nvim-harness.js";

/** What an editor run printed and how it ended. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs `bin args` in its own process group; resolves when it exits. After `timeoutMs` the whole
 * group (the editor and the servers it started) is killed, and so is whatever it left behind.
 */
export function runDetached(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult> {
  const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup(); // a server a failed run left behind goes with it
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The fake provider and project of one editor test; both are closed after each test. */
export function useSpecFixture(): (files: Record<string, string>) => Promise<{ fake: FakeProvider; project: SpecProject }> {
  let fake: FakeProvider | undefined;
  let project: SpecProject | undefined;
  afterEach(async () => {
    await fake?.close();
    project?.dispose();
    fake = undefined;
    project = undefined;
  });
  return async (files) => {
    fake = await startFakeProvider();
    project = createProject(files);
    return { fake, project };
  };
}

/** The text of the last user message the model was sent in request `request`. */
export function lastUserText(f: FakeProvider, request = -1): string {
  const messages = f.requests.at(request)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "user").at(-1)?.content);
}
