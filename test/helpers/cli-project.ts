/**
 * A temp project and home for running the built binary's terminal commands against the fake
 * provider as Anthropic: started before the file's tests, the fake closed after them.
 */
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { tempProject } from "./agent-setup.js";
import { startFakeProvider, type FakeProvider } from "./fake-provider/index.js";

/** The project, the home and the fake, filled in before the tests run. */
export interface CliProject {
  fake: FakeProvider;
  root: string;
  home: string;
  /** The environment the binary runs in: this home, the fake as Anthropic with a key. */
  env(): NodeJS.ProcessEnv;
}

/** Registers the set-up and tear-down of a CLI project for this test file. */
export function useCliProject(): CliProject {
  const project = {} as CliProject;
  project.env = () => ({
    ...process.env,
    HOME: project.home,
    XDG_CONFIG_HOME: path.join(project.home, ".config"),
    ANTHROPIC_BASE_URL: project.fake.url,
    ANTHROPIC_API_KEY: "sk-ant-cli-test-0000",
  });
  beforeAll(async () => {
    project.fake = await startFakeProvider();
    project.root = tempProject();
    project.home = tempProject("agent-lsp-home-");
  });
  afterAll(async () => {
    await project.fake.close();
  });
  return project;
}
