/**
 * Which shell runs a command string: `/bin/sh -c` on Unix, PowerShell on Windows.
 */

/** The program and arguments that run `command`. */
export interface ShellInvocation {
  file: string;
  args: string[];
  /** stderr is already merged into stdout by the shell (one pipe keeps the write order). */
  mergesStderr: boolean;
}

/**
 * How to run `command` in the platform's shell.
 * On Unix the shell first points stderr at stdout: two pipes read by the server cannot tell which
 * of two quick writes came first, one pipe can. The prefix sits on the command's own line so the
 * shell's line numbers in syntax errors still match what the model wrote.
 */
export function shellInvocation(command: string, platform: NodeJS.Platform = process.platform): ShellInvocation {
  if (platform === "win32") {
    return {
      file: "powershell.exe",
      args: ["-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", command],
      mergesStderr: false,
    };
  }
  return { file: "/bin/sh", args: ["-c", `exec 2>&1; ${command}`], mergesStderr: true };
}

/** A program line that runs a command's shell, and whether the kernel contains what it starts. */
export interface LaunchLine {
  file: string;
  args: readonly string[];
  env?: Record<string, string>;
  /**
   * Everything it starts ends with it (a sandbox's own PID namespace, `--die-with-parent`): no
   * leftovers to look for once the shell exits.
   */
  contained: boolean;
}

/** The platform's shell running `command`, uncontained. */
export function shellLine(command: string): LaunchLine {
  const shell = shellInvocation(command);
  return { file: shell.file, args: shell.args, contained: false };
}
