/**
 * workspace/project-root.ts: the filesystem root, the user's home and system folders are never a
 * project root; agent-lsp then works in `<state>/no-project` and says why.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { notAProject, projectRoot } from "../../../server/src/workspace/project-root.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A home and a state folder of their own. */
function userEnv(): NodeJS.ProcessEnv {
  dir = mkdtempSync(path.join(tmpdir(), "agent-lsp-root-"));
  const home = path.join(dir, "home");
  mkdirSync(path.join(home, "work", "app"), { recursive: true });
  return { HOME: home, XDG_STATE_HOME: path.join(dir, "state") };
}

describe("project roots", () => {
  it.each([
    ["/", "the filesystem root"],
    ["/etc", "a system folder"],
    ["/usr/lib/x86_64-linux-gnu", "a system folder"],
    ["/proc/1", "a system folder"],
    ["/home", "a system folder"],
    ["/tmp", "a system folder"],
    ["/var", "a system folder"],
    ["/usr/local", "a system folder"],
  ])("%s is %s", (folder, what) => {
    expect(notAProject(folder, userEnv())).toBe(what);
  });

  it("the home is no project folder, by its path or through a link to it; folders inside it are", () => {
    const env = userEnv();
    expect(notAProject(env.HOME!, env)).toBe("your home folder");
    symlinkSync(env.HOME!, path.join(dir!, "link"));
    expect(notAProject(path.join(dir!, "link"), env)).toBe("your home folder");
    expect(notAProject(path.join(env.HOME!, "work", "app"), env)).toBeUndefined();
  });

  it.each(["/tmp/agent-lsp-project", "/usr/local/src/app", "/var/www/site", "/opt/app", "/srv/app"])("%s is a project folder", (folder) => {
    expect(notAProject(folder, userEnv())).toBeUndefined();
  });

  it("a project folder is the root as it is", () => {
    const env = userEnv();
    const app = path.join(env.HOME!, "work", "app");
    expect(projectRoot(app, env)).toEqual({ root: app });
  });

  it("no project folder: the root is <state>/no-project, created, and the reason names both", () => {
    const env = userEnv();
    const { root, refused } = projectRoot(env.HOME!, env);
    expect(root).toBe(path.join(env.XDG_STATE_HOME!, "agent-lsp", "no-project"));
    expect(existsSync(root)).toBe(true);
    expect(refused).toContain(`${env.HOME} is your home folder, not a project folder`);
    expect(refused).toContain(root);
    expect(projectRoot("/", env)).toMatchObject({ root, refused: expect.stringContaining("/ is the filesystem root") });
  });
});
