/**
 * A cloned repository as hostile input: a project beside a fake home that holds the files an
 * attacker would aim at (a shell profile, SSH keys, Docker and AWS credentials). Tests plant links
 * in the project and check that nothing of the home reaches the model or the editor, and that the
 * home is unchanged.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempProject } from "./agent-setup.js";

/** The project, its state folder, the fake home beside it, and a snapshot of that home. */
export interface HostileProject {
  /** The folder holding both (remove it after the test). */
  base: string;
  root: string;
  home: string;
  /** `<root>/.agent-lsp`, made empty. */
  state: string;
  /** Every file of the home with its content: nothing may change there. */
  snapshot(): string;
}

/** A fake home and a project beside it, with an empty `.agent-lsp` and `app.txt` ("one"). */
export function hostileProject(): HostileProject {
  const base = tempProject("agent-lsp-hostile-");
  const home = path.join(base, "home");
  const root = path.join(base, "project");
  for (const dir of [".ssh", ".docker", ".aws"]) mkdirSync(path.join(home, dir), { recursive: true });
  writeFileSync(path.join(home, ".bashrc"), "# my shell\n");
  writeFileSync(path.join(home, ".ssh", "id_rsa"), "PRIVATE KEY\n");
  writeFileSync(path.join(home, ".docker", "config.json"), '{"auths": {}}\n');
  writeFileSync(path.join(home, ".docker", "1-2-3.json"), '{"pid": 1, "temps": []}\n');
  writeFileSync(path.join(home, ".aws", "credentials"), "[default]\n");
  mkdirSync(path.join(root, ".agent-lsp"), { recursive: true });
  writeFileSync(path.join(root, "app.txt"), "one\n");
  const snapshot = () =>
    readdirSync(home, { recursive: true })
      .map(String)
      .sort()
      .map((rel) => {
        const file = path.join(home, rel);
        return lstatSync(file).isFile() ? `${rel}=${readFileSync(file, "utf8")}` : rel;
      })
      .join("\n");
  return { base, root, home, state: path.join(root, ".agent-lsp"), snapshot };
}
