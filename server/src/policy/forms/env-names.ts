/**
 * Variables that name a program, code or a configuration that does: setting one in front of a
 * command (`PAGER=cmd git log`, `LD_PRELOAD=x.so ls`), alone (`PATH=./evil:$PATH; ls`), or through
 * `export`, `declare`, `read`, `printf -v` lets a remembered program run something else. Such a
 * line is never remembered.
 */
import { basename, effectiveWords, type SimpleCommand } from "../command-line.js";

/** Exact names. */
const PROGRAM_VARIABLES = new Set([
  // The shell itself and every program it finds.
  "PATH", "SHELL", "ENV", "BASH_ENV", "IFS", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "CDPATH",
  // Where programs read their configuration (git reads ~/.gitconfig and $XDG_CONFIG_HOME/git).
  "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS",
  // Pagers, editors, browsers.
  "PAGER", "MANPAGER", "MANOPT", "MANROFFOPT", "SYSTEMD_PAGER", "LESS", "MORE", "EDITOR", "VISUAL", "BROWSER", "TERMINAL",
  // Options programs read from the environment, some of which run programs.
  "TAR_OPTIONS", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES", "MAKE", "NODE_OPTIONS", "NODE_PATH",
  "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB",
  "CLASSPATH", "GCONV_PATH", "GIT", "SSH_ASKPASS", "SUDO_ASKPASS", "KUBECONFIG", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
  // Compilers and their flags (`-fplugin=`, `-wrapper`, `-C linker=`).
  "CC", "CXX", "CPP", "LD", "AS", "AR", "FC", "HOSTCC", "RUSTC", "RUSTDOC", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
]);

/** Families and suffixes: `GIT_SSH_COMMAND`, `LD_PRELOAD`, `npm_config_script_shell`, `JAVA_TOOL_OPTIONS`, `RUSTC_WRAPPER`. */
const PROGRAM_VARIABLE_PATTERNS = [
  /^LESS/,
  /^(GIT|LD|DYLD|CARGO|RUSTUP|NPM_CONFIG|YARN|PNPM|BUN|PIP|UV|POETRY|BUNDLE|GEM|PYTEST|TOX|DENO|JAVA|_JAVA|JDK|MAVEN|GRADLE)_/i,
  /(_COMMAND|_CMD|_PROGRAM|_PROG|_EDITOR|_PAGER|_SHELL|_ASKPASS|_OPTIONS|_OPTS|_PRELOAD|_WRAPPER|_RUNNER|_LINKER|_HOOKS?|_EXEC|_PATH|_HOME|_CONFIG|FLAGS)$/i,
];

/** True when setting `name` can change what a command runs. */
export function namesProgram(name: string): boolean {
  return PROGRAM_VARIABLES.has(name) || PROGRAM_VARIABLE_PATTERNS.some((p) => p.test(name));
}

/**
 * The variables this command sets that name a program: its assignments (prefix, bare, `export`,
 * `for`), and the names `read`, `mapfile`, `printf -v` and `getopts` fill.
 */
export function programVariablesSet(cmd: SimpleCommand): string[] {
  const names = [...cmd.assignments.map((a) => a.name), ...filledNames(effectiveWords(cmd.words))];
  return [...new Set(names.filter(namesProgram))];
}

/** Why the command is never remembered, when it sets such a variable. */
export function programVariableReason(cmd: SimpleCommand): string | undefined {
  const names = programVariablesSet(cmd);
  if (!names.length) return undefined;
  return `commands that set ${names.join(", ")} are never remembered: ${names.length === 1 ? "it names" : "they name"} a program or code the command runs`;
}

/** The variables `read NAME`, `mapfile NAME`, `printf -v NAME`, `getopts spec NAME` fill. */
function filledNames(eff: readonly string[]): string[] {
  const program = eff[0] === undefined ? "" : basename(eff[0]);
  const args = eff.slice(1);
  if (program === "printf") {
    const v = args.findIndex((a) => a === "-v");
    return v === -1 ? [] : [args[v + 1] ?? ""];
  }
  if (program === "getopts") return args[1] === undefined ? [] : [args[1]];
  if (program === "read" || program === "mapfile" || program === "readarray") {
    // Options that take a value: read -a NAME -d D -n N -N N -p P -t T -u FD; mapfile -d -n -O -s -u -C -c.
    const out: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (/^-[adnNptuOsCc]$/.test(a)) {
        if (a === "-a") out.push(args[i + 1] ?? "");
        i++;
      } else if (!a.startsWith("-")) out.push(a);
    }
    return out.length || program !== "read" ? out : ["REPLY"];
  }
  return [];
}
