/**
 * Checks, in a child process, that nut-js can open the display before this process loads it:
 * libnut ends the whole process with a segmentation fault when the X server in DISPLAY is not
 * there (or refuses us), which would take the editor's agent down with it. Checked once per
 * DISPLAY value.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";

const checked = new Map<string, Promise<string | undefined>>();

/** Why the display cannot be driven, or undefined when nut-js opened it in a child process. */
export function probeDisplay(display: string): Promise<string | undefined> {
  let result = checked.get(display);
  if (!result) {
    result = runProbe(display);
    checked.set(display, result);
    // A failure is checked again next time: the user may start the X server meanwhile.
    void result.then((problem) => problem && checked.delete(display));
  }
  return result;
}

function runProbe(display: string): Promise<string | undefined> {
  const nutPath = createRequire(import.meta.url).resolve("@nut-tree-fork/nut-js");
  const script = `require(${JSON.stringify(nutPath)}).screen.width().then((w) => { process.stdout.write(String(w)); process.exit(0); }, (e) => { process.stderr.write(String(e && e.message)); process.exit(2); });`;
  return new Promise((resolve) => {
    execFile(process.execPath, ["-e", script], { env: { ...process.env, DISPLAY: display }, timeout: 15_000 }, (err, stdout, stderr) => {
      if (!err && Number(stdout) > 0) return resolve(undefined);
      const why = (stderr || (err as Error | null)?.message || "no answer").trim().split("\n")[0];
      const signal = (err as { signal?: string } | null)?.signal;
      resolve(`the display ${display} could not be opened (${signal ? `the probe died with ${signal}: ` : ""}${why}). Check that the X server is running and that this user may connect to it (xauth).`);
    });
  });
}
